// The finding ledger on GitLab through a real server process, the fake GitLab and a scripted
// model: Loupe's finding on a merge request; a Reporter's 👎 award emoji dismisses nothing (a push
// later the finding is still open); a Developer's 👎 dismisses it, and the dismissal holds through
// a force-push that squashes the branch, the model raising the same finding again. A Developer
// resolving the thread of a finding whose line a push then changed counts it fixed, not dismissed.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { stopTurn } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { type FakeGitLab, startFakeGitLab } from "../../support/fake-gitlab.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { deliverGitLabEvent, mergeRequestEvent } from "../../support/gitlab-webhooks.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";

const SECRET = `whsec-e2e-gitlab-ledger-${process.pid}-${Date.now()}`;
const GITLAB_SECRET = `gitlab-hook-ledger-${process.pid}-${Date.now()}`;
const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const v${i + 1} = ${i + 1};`);
const CHANGED = `${lines(30).join("\n").replace("v10 = 10;", "v10 = 100;")}\n`;

let github: FakeGitHub;
let gitlab: FakeGitLab;
let provider: ScriptedProvider;
let loupe: LoupeProcess;
let fixture: FixtureRepo;

const review = {
  body: stopTurn({
    summary: "One constant changed its value.",
    findings: [
      {
        severity: "medium",
        title: "v10 no longer equals its name",
        explanation: "The constant v10 is now 100 while every other constant equals its index.",
        path: "src/values.ts",
        line: 10,
        evidence: "export const v10 = 100;",
        recommendation: "Restore 10 or rename the constant.",
      },
    ],
    notes: [],
  }),
};

const clean = { body: stopTurn({ summary: "The constants are consistent.", findings: [], notes: [] }) };

const hook = () => `${loupe.url}/api/gitlab/webhooks`;
const summary = () => gitlab.notes.find((n) => n.body.startsWith("<!-- loupe:summary -->"))!.body;

/** Pushes the branch to the fake GitLab, delivers the update with its oldrev, waits for the final status. */
async function push(change: (repo: FixtureRepo) => void, branch = "change-v10", iid = 9): Promise<string> {
  const oldrev = fixture.revParse(branch);
  fixture.checkout(branch);
  change(fixture);
  fixture.checkout("main");
  gitlab.pushBranch("team/values", fixture, branch);
  const head = gitlab.addMergeRequest({ project: "team/values", iid, sourceBranch: branch }).diffRefs
    .head_sha;
  const event = mergeRequestEvent({
    project: "team/values",
    iid,
    headSha: head,
    action: "update",
    oldrev,
  });
  expect(await deliverGitLabEvent(hook(), GITLAB_SECRET, event)).toBe(200);
  await loupe.until(
    () => gitlab.statuses.find((s) => s.sha === head && s.status !== "pending"),
    "the final status",
  );
  return summary();
}

beforeAll(async () => {
  fixture = createRepo();
  fixture.write("src/values.ts", `${lines(30).join("\n")}\n`);
  fixture.commit("values");
  fixture.branch("change-v10");
  fixture.write("src/values.ts", CHANGED);
  fixture.commit("v10 is 100");
  fixture.checkout("main");
  fixture.branch("fix-v10");
  fixture.write("src/values.ts", CHANGED);
  fixture.commit("v10 is 100 here too");
  fixture.checkout("main");
  github = await startFakeGitHub();
  gitlab = await startFakeGitLab();
  gitlab.addProject({ path: "team/values", source: fixture, members: { dev: 30, rep: 20 } });
  provider = await startScriptedProvider([review, review, review, review, clean]);
  const env = fakeWorldEnv({
    github,
    providerBaseURL: provider.baseURL,
    webhookSecret: SECRET,
    apiKey: `test-key-gitlab-ledger-${process.pid}`,
    extra: { GITLAB_URL: gitlab.url, GITLAB_TOKEN: gitlab.token, GITLAB_WEBHOOK_SECRET: GITLAB_SECRET },
  });
  loupe = await startLoupeProcess({ command: "node", env });
}, 60_000);

afterAll(async () => {
  await loupe?.stop();
  await provider?.stop();
  await gitlab?.stop();
  await github?.stop();
  fixture?.dispose();
});

describe("the finding ledger on a GitLab merge request", () => {
  it("a Reporter's 👎 dismisses nothing; a Developer's does, through a force-push", async () => {
    const head = gitlab.addMergeRequest({ project: "team/values", iid: 9, sourceBranch: "change-v10" })
      .diffRefs.head_sha;
    const opened = mergeRequestEvent({ project: "team/values", iid: 9, headSha: head, action: "open" });
    expect(await deliverGitLabEvent(hook(), GITLAB_SECRET, opened)).toBe(200);
    await loupe.until(
      () => gitlab.statuses.find((s) => s.sha === head && s.status !== "pending"),
      "a review",
    );
    const finding = gitlab.notes.find((n) => n.author === gitlab.username && n.type === "DiffNote")!;
    expect(finding.body).toContain("v10 no longer equals its name");

    gitlab.award(finding, "thumbsdown", "rep");
    const afterReporter = await push((repo) => {
      repo.write("src/other.ts", "export const other = 1;\n");
      repo.commit("another file");
    });
    expect(afterReporter).toContain("1 open, 0 dismissed");

    gitlab.award(finding, "thumbsdown", "dev");
    const forced = await push((repo) => {
      repo.git("reset", "--soft", "main");
      repo.commit("squashed");
    });
    expect(forced).toContain("0 open, 1 dismissed");
    // One finding note in all: the dismissed finding is not posted again after the force-push.
    expect(gitlab.notes.filter((n) => n.author === gitlab.username && n.type === "DiffNote")).toHaveLength(1);
    // The 👎 was read from GitLab's award emoji of Loupe's note.
    expect(gitlab.requests.some((r) => r.url.includes(`/notes/${finding.id}/award_emoji`))).toBe(true);
  });

  it("a Developer resolving a thread whose line a push then changed counts it fixed, not dismissed", async () => {
    const head = gitlab.addMergeRequest({ project: "team/values", iid: 10, sourceBranch: "fix-v10" }).diffRefs
      .head_sha;
    const opened = mergeRequestEvent({ project: "team/values", iid: 10, headSha: head, action: "open" });
    expect(await deliverGitLabEvent(hook(), GITLAB_SECRET, opened)).toBe(200);
    await loupe.until(
      () => gitlab.statuses.find((s) => s.sha === head && s.status !== "pending"),
      "a review",
    );
    const finding = gitlab.notes.find(
      (n) => n.iid === 10 && n.author === gitlab.username && n.type === "DiffNote",
    )!;
    expect(finding.body).toContain("v10 no longer equals its name");

    gitlab.resolve(finding, "dev");
    await push(
      (repo) => {
        repo.write("src/values.ts", CHANGED.replace("v10 = 100;", "v10 = 10; // restored"));
        repo.commit("restore v10");
      },
      "fix-v10",
      10,
    );
    const note = gitlab.notes
      .filter((n) => n.iid === 10 && n.body.startsWith("<!-- loupe:summary -->"))
      .at(-1)!;
    expect(note.body).toContain("1 fixed");
    expect(note.body).toContain("0 dismissed");
  });
});
