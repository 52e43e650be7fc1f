// Loupe serving GitLab alone, as a real server process started with GitLab's settings and none of
// the GitHub App's: it starts, reviews a merge request, and has no GitHub webhook route. A partial
// setting on either side stops it before it listens, with one line naming the setting; GitHub's
// App without GitLab is every other test's start.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { nothingFound } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import type { FakeGitLab } from "../../support/fake-gitlab.ts";
import { deliverGitLabEvent, mergeRequestEvent } from "../../support/gitlab-webhooks.ts";
import { type GitLabWorld, startGitLabWorld } from "../../support/gitlab-world.ts";
import { type LoupeProcess, runLoupeToExit } from "../../support/loupe-process.ts";

const GITHUB_APP = [
  "APP_ID",
  "PRIVATE_KEY",
  "WEBHOOK_SECRET",
  "GHE_HOST",
  "GHE_PROTOCOL",
  "GITHUB_WRITE_SPACING_MS",
];

let world: GitLabWorld;
let github: FakeGitHub;
let gitlab: FakeGitLab;
let loupe: LoupeProcess;

/** The world's settings (GitLab's), less every one of the GitHub App's, plus `extra`. */
function gitLabOnly(extra: Record<string, string> = {}): Record<string, string> {
  const env = { ...world.env };
  for (const name of GITHUB_APP) delete env[name];
  return { ...env, ...extra };
}

beforeAll(async () => {
  // A fake GitHub runs beside the world, so that a request to GitHub would be seen.
  github = await startFakeGitHub();
  world = await startGitLabWorld({
    name: "only",
    project: "team/only",
    script: [{ body: nothingFound() }],
  });
  ({ gitlab, loupe } = world);
}, 60_000);

afterAll(async () => {
  await world?.stop();
  await github?.stop();
});

describe("Loupe with GitLab alone", () => {
  it("starts without the GitHub App's settings and reviews a merge request", async () => {
    expect(Object.keys(world.env).filter((name) => GITHUB_APP.includes(name))).toEqual([]);
    const head = gitlab.addMergeRequest({ project: "team/only", iid: 1, sourceBranch: "change" }).diffRefs
      .head_sha;
    const event = mergeRequestEvent({ project: "team/only", iid: 1, headSha: head, action: "open" });
    expect(await deliverGitLabEvent(`${loupe.url}/api/gitlab/webhooks`, world.secret, event)).toBe(200);
    await loupe.until(
      () => gitlab.statuses.find((s) => s.sha === head && s.status === "success"),
      "the final status",
    );
    expect(gitlab.notes.filter((n) => n.body.startsWith("<!-- loupe:summary -->"))).toHaveLength(1);
    const github404 = await fetch(`${loupe.url}/api/github/webhooks`, { method: "POST", body: "{}" });
    expect(github404.status).toBe(404);
    expect(github.requests).toEqual([]);
    // No Probot runs: no line says it is Probot's, and the start says who the token is.
    const lines = loupe
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"));
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.filter((l) => l.includes('"name":"probot"'))).toEqual([]);
    // (the access log's lines are the HTTP server's own, "http")
    expect(lines.filter((l) => !l.includes('"name":"loupe"') && !l.includes('"name":"http"'))).toEqual([]);
    expect(loupe.output()).toContain("GitLab: the token is @loupe-bot's");
  });

  it("refuses a partial setting of either forge in one line naming it", async () => {
    const noSecret = await runLoupeToExit({ command: "node", env: gitLabOnly({ APP_ID: "12" }) });
    expect(noSecret.code).toBe(1);
    expect(noSecret.output).toContain(
      "loupe: WEBHOOK_SECRET is required: set it to the App's webhook secret",
    );
    const secret = { APP_ID: "12", WEBHOOK_SECRET: `whsec-only-${process.pid}-0123456789` };
    const noKey = await runLoupeToExit({ command: "node", env: gitLabOnly(secret) });
    expect(noKey.code).toBe(1);
    expect(noKey.output).toContain(
      "loupe: PRIVATE_KEY or PRIVATE_KEY_PATH is required with APP_ID: generate a private key on the App's settings page",
    );
    const env = gitLabOnly();
    delete env.GITLAB_WEBHOOK_SECRET;
    const partialGitLab = await runLoupeToExit({ command: "node", env });
    expect(partialGitLab.code).toBe(1);
    expect(partialGitLab.output).toContain(
      "loupe: GITLAB_WEBHOOK_SECRET is required with GITLAB_URL and GITLAB_TOKEN",
    );
  });
});
