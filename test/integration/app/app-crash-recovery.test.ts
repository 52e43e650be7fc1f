// With LOUPE_STATE_DIR, Loupe records every check run it creates until it completes it, so a
// process killed without its shutdown (SIGKILL, the OOM killer) leaves nothing queued or in
// progress: the next start completes what the journal still lists. Through Probot, with nock.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import {
  expectCleanEnd,
  INSTALLATION,
  mockReviewStart,
  OWNER,
  PR,
  pullRequestPayload,
  REPO,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { review, stopTurn } from "../../support/chat-turns.ts";
import { mockGitHub } from "../../support/github-mock.ts";

const app = useAppScenario({ harness: { botLogin: "loupe-test[bot]" } });
let stateDir: string;
const journalFile = () => path.join(stateDir, "open-check-runs.json");
const journal = () => JSON.parse(fs.readFileSync(journalFile(), "utf8")) as unknown[];

beforeEach(() => {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-state-"));
});
afterEach(() => fs.rmSync(stateDir, { recursive: true, force: true }));

const leftOpen = (checkRunId: number) => ({
  installationId: INSTALLATION,
  owner: OWNER,
  repo: REPO,
  checkRunId,
});

describe("the open check-run journal", () => {
  it("lists a check run while its review runs, and forgets it once completed", async () => {
    const seen: unknown[][] = [];
    const h = await app.start([{ body: stopTurn(review([])) }], {
      config: { stateDir },
      ports: (real) => ({
        ...real,
        runLoop: async (input) => {
          seen.push(journal()); // the check run exists by now: it must be on disk already
          return real.runLoop(input);
        },
      }),
    });
    await h.recovered();
    const gh = mockReviewStart(app.fx).listReviewComments(PR).listReviews(PR);
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    expect(seen).toEqual([[leftOpen(1)]]);
    expect(gh.completion(1).conclusion).toBe("success");
    expect(journal()).toEqual([]);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("at start, completes a run a killed process left open: cancelled, 'Loupe restarted'", async () => {
    fs.writeFileSync(journalFile(), JSON.stringify([leftOpen(7)]));
    const gh = mockGitHub(OWNER, REPO, INSTALLATION).token().updateCheckRun(7);
    const h = await app.start([], { config: { stateDir } });
    await h.recovered();
    const done = gh.completion(7);
    expect(done.conclusion).toBe("cancelled");
    expect((done.output as { title: string }).title).toBe("Loupe restarted; press Re-run");
    expect(journal()).toEqual([]);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("forgets a left-open run GitHub no longer has (404), keeps one it could not reach (500)", async () => {
    fs.writeFileSync(journalFile(), JSON.stringify([leftOpen(8), leftOpen(9)]));
    const gh = mockGitHub(OWNER, REPO, INSTALLATION).token();
    gh.scope.patch(`/repos/${OWNER}/${REPO}/check-runs/8`).reply(404, { message: "Not Found" });
    gh.scope.patch(`/repos/${OWNER}/${REPO}/check-runs/9`).reply(500, { message: "Server Error" });
    const h = await app.start([], { config: { stateDir } });
    await h.recovered();
    expect(journal()).toEqual([leftOpen(9)]);
    expect(h.logs().some((line) => line.includes("will try again at the next start"))).toBe(true);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("sets a damaged journal aside and starts a new one", async () => {
    fs.writeFileSync(journalFile(), "{ not json");
    const h = await app.start([], { config: { stateDir } });
    await h.recovered();
    expect(fs.readFileSync(`${journalFile()}.damaged`, "utf8")).toBe("{ not json");
    expect(h.logs().some((line) => line.includes("check-run journal is damaged"))).toBe(true);
    expectCleanEnd(h, app.provider, []);
  });

  it("a state directory it cannot write costs nothing but a warning: the review completes", async () => {
    const notADirectory = path.join(stateDir, "a-file");
    fs.writeFileSync(notADirectory, "");
    const h = await app.start([{ body: stopTurn(review([])) }], { config: { stateDir: notADirectory } });
    await h.recovered();
    const gh = mockReviewStart(app.fx).listReviewComments(PR).listReviews(PR);
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    expect(gh.completion(1).conclusion).toBe("success");
    expect(h.logs().some((line) => line.includes("check-run journal not written"))).toBe(true);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
