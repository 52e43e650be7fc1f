// The finding ledger on GitLab through a real server process, the fake GitLab and a scripted
// model: Loupe's finding on a merge request; a Reporter's 👎 award emoji dismisses nothing (a push
// later the finding is still open); a Developer's 👎 dismisses it, and the dismissal holds through
// a force-push that squashes the branch, the model raising the same finding again. A Developer
// resolving the thread of a finding whose line a push then changed counts it fixed, not dismissed.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { stopTurn } from "../../support/chat-turns.ts";
import type { FakeGitLab } from "../../support/fake-gitlab.ts";
import type { FixtureRepo } from "../../support/git-fixture.ts";
import { deliverGitLabEvent, mergeRequestEvent } from "../../support/gitlab-webhooks.ts";
import { type GitLabBesideAppWorld, startGitLabWorldBesideApp } from "../../support/gitlab-world.ts";
import type { LoupeProcess } from "../../support/loupe-process.ts";
import { createValuesRepo, VALUES_V10_IS_100, v10Review } from "../../support/values-repo.ts";

let world: GitLabBesideAppWorld;
let gitlab: FakeGitLab;
let loupe: LoupeProcess;
let fixture: FixtureRepo;

const review = { body: stopTurn(v10Review()) };

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
  expect(await deliverGitLabEvent(hook(), world.secret, event)).toBe(200);
  await loupe.until(
    () => gitlab.statuses.find((s) => s.sha === head && s.status !== "pending"),
    "the final status",
  );
  return summary();
}

beforeAll(async () => {
  world = await startGitLabWorldBesideApp({
    name: "ledger",
    project: "team/values",
    fixture: () => {
      const repo = createValuesRepo();
      repo.branch("fix-v10");
      repo.write("src/values.ts", VALUES_V10_IS_100);
      repo.commit("v10 is 100 here too");
      repo.checkout("main");
      return repo;
    },
    members: { dev: 30, rep: 20 },
    script: [review, review, review, review, clean],
  });
  ({ gitlab, loupe, fixture } = world);
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

describe("the finding ledger on a GitLab merge request", () => {
  it("a Reporter's 👎 dismisses nothing; a Developer's does, through a force-push", async () => {
    const head = gitlab.addMergeRequest({ project: "team/values", iid: 9, sourceBranch: "change-v10" })
      .diffRefs.head_sha;
    const opened = mergeRequestEvent({ project: "team/values", iid: 9, headSha: head, action: "open" });
    expect(await deliverGitLabEvent(hook(), world.secret, opened)).toBe(200);
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
    expect(await deliverGitLabEvent(hook(), world.secret, opened)).toBe(200);
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
        repo.write("src/values.ts", VALUES_V10_IS_100.replace("v10 = 100;", "v10 = 10; // restored"));
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
