// A self-managed GitLab behind a certificate Node does not trust (self-signed, made here with
// openssl, on a real HTTPS server on 127.0.0.1 in front of the fake GitLab): Loupe names the TLS
// problem at start, /readyz is not ready and says why, and each failed call is a `dependency_down`
// line and a loupe_dependency_errors_total{dependency="gitlab",kind="tls"} — not a healthy-looking
// server failing every review. Given the certificate in NODE_EXTRA_CA_CERTS, the same instance is
// trusted: ready, and a merge request reviewed over HTTPS, API and git alike.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { nothingFound } from "../../support/chat-turns.ts";
import { type FakeGitLab, startFakeGitLab } from "../../support/fake-gitlab.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeGitLabHook, mergeRequestEvent } from "../../support/gitlab-webhooks.ts";
import { gitLabOnlyEnv } from "../../support/gitlab-world.ts";
import { type HttpsProxy, startHttpsProxy } from "../../support/https-proxy.ts";
import { type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";

const SECRET = `gitlab-hook-tls-${process.pid}-${Date.now()}`;
let gitlab: FakeGitLab;
let proxy: HttpsProxy;
let provider: ScriptedProvider;
let fixture: FixtureRepo;
const started: LoupeProcess[] = [];

beforeAll(async () => {
  fixture = createOneChangeRepo();
  gitlab = await startFakeGitLab();
  gitlab.addProject({ path: "team/app", source: fixture, members: { dev: 30 } });
  proxy = await startHttpsProxy(gitlab.url);
  provider = await startScriptedProvider([{ body: nothingFound() }]);
}, 60_000);

afterAll(async () => {
  for (const loupe of started) await loupe.stop();
  await provider?.stop();
  await proxy?.stop();
  await gitlab?.stop();
  fixture?.dispose();
});

const start = async (extra: Record<string, string> = {}) => {
  const env = gitLabOnlyEnv({
    gitlab: { url: proxy.url, token: gitlab.token },
    providerBaseURL: provider.baseURL,
    apiKey: `test-key-tls-${process.pid}`,
    secret: SECRET,
    extra,
  });
  const loupe = await startLoupeProcess({ command: "node", env });
  started.push(loupe);
  return loupe;
};

describe("GitLab behind a certificate Loupe does not trust", () => {
  it("is named at start, in /readyz, in dependency_down and in the dependency metrics", async () => {
    const loupe = await start();
    expect(loupe.output()).toContain(
      `GITLAB_URL=${proxy.url} presents a TLS certificate Loupe does not trust (DEPTH_ZERO_SELF_SIGNED_CERT): set NODE_EXTRA_CA_CERTS`,
    );
    const ready = await fetch(`${loupe.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).toContain(
      "presents a TLS certificate Loupe does not trust: set NODE_EXTRA_CA_CERTS",
    );
    const down = await loupe.until(
      () =>
        loupe
          .output()
          .split("\n")
          .find((l) => l.includes('"event":"dependency_down"') && l.includes('"gitlab"')),
      "GitLab's dependency_down line",
    );
    expect(down).toContain('"kind":"tls"');
    expect(down).toContain("its TLS certificate is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT)");
    const metrics = await (await fetch(`${loupe.url}/metrics`)).text();
    expect(metrics).toMatch(/loupe_dependency_errors_total\{dependency="gitlab",kind="tls"\} [1-9]/);
  });

  it("is trusted with NODE_EXTRA_CA_CERTS: ready, and a merge request reviewed over HTTPS", async () => {
    const loupe = await start({ NODE_EXTRA_CA_CERTS: proxy.certificateFile });
    expect((await fetch(`${loupe.url}/readyz`)).status).toBe(200);
    const head = gitlab.addMergeRequest({ project: "team/app", iid: 1, sourceBranch: "change" }).diffRefs
      .head_sha;
    const hook = fakeGitLabHook({ url: `${loupe.url}/api/gitlab/webhooks`, secret: SECRET });
    await hook.deliver(mergeRequestEvent({ project: "team/app", iid: 1, headSha: head, action: "open" }));
    await loupe.until(
      () => gitlab.statuses.find((s) => s.sha === head && s.status === "success"),
      "the final status",
    );
    expect(gitlab.gitRequests.length).toBeGreaterThan(0);
  });
});
