// A fork's merge request, end to end, against the fake GitLab: the source branch is in the fork
// (contributor/app), the target project keeps the head only as refs/merge-requests/<iid>/head,
// on none of its branches. A commit status without `ref` is a 404 "References for commit" there
// (as Ci::CreateCommitStatusService answers); Loupe sends the merge request's head ref, fetches
// the head from the target project, and reviews it. A status GitLab refuses anyway never fails
// the review: the second merge request's project refuses every status, and it is reviewed.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mergeRequestEvent } from "../../support/gitlab-webhooks.ts";
import { type GitLabWorld, startGitLabWorld } from "../../support/gitlab-world.ts";

let world: GitLabWorld;

beforeAll(async () => {
  world = await startGitLabWorld({ name: "fork", project: "team/app" });
  world.gitlab.addProject({ path: "contributor/app", source: world.fixture });
  world.gitlab.deleteBranch("team/app", "change");
  world.gitlab.addProject({ path: "team/reporter", source: world.fixture, members: { dev: 30 } });
  world.gitlab.setBotAccess("team/reporter", 20);
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

describe("a fork's merge request on GitLab", () => {
  it("is reviewed, its status on refs/merge-requests/<iid>/head", async () => {
    const { gitlab, hook, loupe } = world;
    const mr = gitlab.addMergeRequest({
      project: "team/app",
      iid: 7,
      sourceBranch: "change",
      sourceProject: "contributor/app",
    });
    const head = mr.diffRefs.head_sha;
    const attempt = await hook.deliver(
      mergeRequestEvent({ project: "team/app", iid: 7, headSha: head, action: "open" }),
    );
    expect(attempt.result).toBe(200);
    await loupe.until(
      () => gitlab.statuses.find((s) => s.sha === head && s.status !== "pending"),
      "the fork's final status",
    );
    expect(gitlab.statuses.filter((s) => s.sha === head).map((s) => [s.status, s.ref])).toEqual([
      ["pending", "refs/merge-requests/7/head"],
      ["success", "refs/merge-requests/7/head"],
    ]);
    const summary = gitlab.notes.find((n) => n.iid === 7 && n.body.startsWith("<!-- loupe:summary -->"));
    expect(summary?.body).toContain("passed validation");
    // The status GitLab refuses without `ref` for this head, as its source does.
    const bare = await fetch(`${gitlab.url}/api/v4/projects/team%2Fapp/statuses/${head}`, {
      method: "POST",
      headers: { "PRIVATE-TOKEN": gitlab.token, "Content-Type": "application/json" },
      body: JSON.stringify({ state: "success", name: "probe" }),
    });
    expect([bare.status, await bare.json()]).toEqual([
      404,
      { message: "404 References for commit Not Found" },
    ]);
  });

  it("is reviewed when GitLab refuses its commit status (the bot a Reporter there)", async () => {
    const { gitlab, hook, loupe } = world;
    const head = gitlab.addMergeRequest({ project: "team/reporter", iid: 2, sourceBranch: "change" }).diffRefs
      .head_sha;
    await hook.deliver(
      mergeRequestEvent({ project: "team/reporter", iid: 2, headSha: head, action: "open" }),
    );
    const summary = await loupe.until(
      () => gitlab.notes.find((n) => n.iid === 2 && n.body.startsWith("<!-- loupe:summary -->")),
      "the summary note",
    );
    expect(summary.body).toContain("passed validation");
    // The same commit as the fork's: only the fork's statuses, none on this project's branch.
    expect(gitlab.statuses.filter((s) => s.sha === head && s.ref === "change")).toEqual([]);
    expect(loupe.output()).toContain("pending commit status not written; the review goes on");
  });
});
