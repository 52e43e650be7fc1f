// A Loupe process killed mid-review (SIGKILL: no shutdown runs) leaves its check run in progress,
// as GitHub would show it; with LOUPE_STATE_DIR, the next process completes it at start as
// cancelled ("Loupe restarted; press Re-run"). It also leaves its repository workers' directories,
// the review's fetched repository among them, which the next process removes. Real server
// processes against the fake GitHub, in a temp directory of their own (TMPDIR).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ownerOfWorkerDir } from "../../../src/isolation/worker-dirs.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-crash-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
let github: FakeGitHub;
let provider: ScriptedProvider;
let fixture: FixtureRepo;
let stateDir: string;
let tmpDir: string;
const processes: LoupeProcess[] = [];

function start(): Promise<LoupeProcess> {
  return startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: provider.baseURL,
      webhookSecret: SECRET,
      apiKey: `test-key-crash-${process.pid}`,
      extra: { LOUPE_STATE_DIR: stateDir, TMPDIR: tmpDir },
    }),
  }).then((loupe) => {
    processes.push(loupe);
    return loupe;
  });
}

/** Polls the fake's state; bounded only by the test's own timeout (no duration is asserted). */
async function until<T>(probe: () => T | undefined): Promise<T> {
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  fixture = createOneChangeRepo();
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "crash", source: fixture });
  provider = await startScriptedProvider([{ fault: "hang" }]); // the review is stuck in the model
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-crash-state-"));
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-crash-tmp-"));
}, 60_000);

afterAll(async () => {
  for (const loupe of processes) await loupe.stop(1000);
  await provider?.stop();
  await github?.stop();
  fixture?.dispose();
  fs.rmSync(stateDir, { recursive: true, force: true });
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe("a killed Loupe process", () => {
  it("leaves nothing in progress once the next process has started", async () => {
    const first = await start();
    const pr = github.addPullRequest({ owner: "octo", repo: "crash", number: 3, headRef: "change" });
    const target = fakeGitHubTarget(github, "crash");
    await deliverWebhook({
      url: first.webhookUrl,
      event: "pull_request",
      payload: pullRequestEvent("opened", target, pr),
      secret: SECRET,
    });
    await until(() => (provider.requests.length > 0 ? true : undefined));
    const run = github.checkRuns.find((r) => r.headSha === pr.headSha)!;
    expect(run.history.at(-1)?.status).toBe("in_progress");

    process.kill(-first.pid, "SIGKILL"); // no shutdown, no grace: the run stays in progress
    await first.exited;
    expect(run.history.at(-1)?.status).toBe("in_progress");
    const left = fs
      .readdirSync(tmpDir)
      .filter(
        (name) => ownerOfWorkerDir(name)?.pid === first.pid && ownerOfWorkerDir(name)?.host === os.hostname(),
      );
    expect(left.length).toBeGreaterThan(0);
    // The review had fetched its repository into one of them before the model was asked.
    expect(left.flatMap((name) => fs.readdirSync(path.join(tmpDir, name)))).not.toEqual([]);

    const second = await start();
    const final = await until(() =>
      run.history.at(-1)?.status === "completed" ? run.history.at(-1) : undefined,
    );
    expect(final.conclusion).toBe("cancelled");
    expect(final.output?.title).toBe("Loupe restarted; press Re-run");
    // The journal forgets the run once GitHub has answered the completion: wait for that write.
    const journal = path.join(stateDir, "open-check-runs.json");
    await until(() => (fs.readFileSync(journal, "utf8").trim() === "[]" ? true : undefined));
    await second.until(
      () => (fs.readdirSync(tmpDir).some((name) => left.includes(name)) ? undefined : true),
      "the killed process's worker directories removed",
    );
    // Said once the warm-up is done, after the sweep.
    await second.until(
      () => (second.output().includes(`"removed":${left.length}`) ? true : undefined),
      "the sweep's warning",
    );
  });
});
