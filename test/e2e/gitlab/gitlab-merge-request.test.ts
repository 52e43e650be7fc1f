// Loupe as a real server process with GitLab configured, against the fake GitLab (REST and git
// over a real `git http-backend`) and a scripted model: a merge request opened → a pending commit
// status on its head, one bulk-published review with its finding anchored on the line, a summary
// note, and the final status by the repository's fail_on; then a push → an incremental review of
// the new commit, the same summary note updated in place. The GitHub App's settings are those of
// the test world (they stay required; docs/gitlab.md says so).

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import type { FakeGitHub } from "../../support/fake-github.ts";
import type { FakeGitLab } from "../../support/fake-gitlab.ts";
import type { FixtureRepo } from "../../support/git-fixture.ts";
import { deliverGitLabEvent, mergeRequestEvent } from "../../support/gitlab-webhooks.ts";
import { type GitLabBesideAppWorld, startGitLabWorldBesideApp } from "../../support/gitlab-world.ts";
import { type LoupeProcess, runLoupeToExit } from "../../support/loupe-process.ts";
import { createValuesRepo, VALUES_V10_IS_100, v10Review } from "../../support/values-repo.ts";

let world: GitLabBesideAppWorld;
let github: FakeGitHub;
let gitlab: FakeGitLab;
let loupe: LoupeProcess;
let fixture: FixtureRepo;

const finalReview = v10Review("high");

beforeAll(async () => {
  world = await startGitLabWorldBesideApp({
    name: "merge-request",
    project: "team/values",
    fixture: () => createValuesRepo({ ".gitlab/loupe.yml": "fail_on: high\n" }),
    script: [
      {
        body: toolCallsTurn([
          { id: "call_1", name: "read_repository_file", arguments: { path: "src/values.ts" } },
        ]),
      },
      { body: stopTurn(finalReview) },
      { body: stopTurn({ summary: "v11 follows.", findings: [], notes: [] }) },
    ],
  });
  ({ github, gitlab, loupe, fixture } = world);
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

describe("Loupe reviewing a GitLab merge request", () => {
  it("sets a pending status, publishes one review with its finding on the line, a summary, and fails by fail_on", async () => {
    const mr = gitlab.addMergeRequest({ project: "team/values", iid: 4, sourceBranch: "change-v10" });
    const head = mr.diffRefs.head_sha;
    const event = mergeRequestEvent({ project: "team/values", iid: 4, headSha: head, action: "open" });
    expect(await deliverGitLabEvent(`${loupe.url}/api/gitlab/webhooks`, "not-the-secret", event)).toBe(401);
    expect(await deliverGitLabEvent(`${loupe.url}/api/gitlab/webhooks`, world.secret, event)).toBe(200);

    const final = await loupe.until(
      () => gitlab.statuses.find((s) => s.sha === head && s.status !== "pending"),
      "a final commit status",
    );
    const states = gitlab.statuses.filter((s) => s.sha === head).map((s) => s.status);
    expect(states).toEqual(["pending", "failed"]);
    expect(final).toMatchObject({ name: "Loupe" });
    expect(final.description).toBeTruthy();

    expect(gitlab.publishes).toHaveLength(1);
    const [body, comment] = gitlab.publishes[0]!;
    expect(body?.position).toBeNull();
    expect(comment?.position).toMatchObject({
      position_type: "text",
      new_path: "src/values.ts",
      new_line: 10,
      ...mr.diffRefs,
    });
    expect(comment?.note).toContain("v10 no longer equals its name");
    expect(gitlab.drafts).toEqual([]);

    const summaries = gitlab.notes.filter((n) => n.body.startsWith("<!-- loupe:summary -->"));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.body).toContain("The model returned a final review that passed validation.");
    expect(summaries[0]!.author).toBe(gitlab.username);
    // Whatever Loupe wrote on the merge request is in GitLab's words, never in GitHub's.
    expect(gitlab.written.length).toBeGreaterThan(0);
    for (const text of gitlab.written) expect(text).not.toMatch(/GitHub|[Cc]heck run|Re-run review/);

    // The workspace came over git HTTP with the token as a header, never in a URL or a log line.
    expect(gitlab.gitRequests.some((r) => r.url.includes("git-upload-pack"))).toBe(true);
    for (const request of [...gitlab.requests, ...gitlab.gitRequests])
      expect(request.url).not.toContain(gitlab.token);
    expect(loupe.output()).not.toContain(gitlab.token);
    expect(loupe.output()).not.toContain(world.secret);
    expect(github.requests.filter((r) => r.url.includes("/check-runs"))).toEqual([]);
  });

  it("reviews a push incrementally, updating the one summary note in place", async () => {
    fixture.checkout("change-v10");
    fixture.write("src/values.ts", `${VALUES_V10_IS_100}export const v31 = 31;\n`);
    const oldHead = fixture.revParse("change-v10");
    fixture.commit("v31");
    fixture.checkout("main");
    gitlab.pushBranch("team/values", fixture, "change-v10");
    const mr = gitlab.addMergeRequest({ project: "team/values", iid: 4, sourceBranch: "change-v10" });
    const head = mr.diffRefs.head_sha;
    const event = mergeRequestEvent({
      project: "team/values",
      iid: 4,
      headSha: head,
      action: "update",
      oldrev: oldHead,
    });
    expect(await deliverGitLabEvent(`${loupe.url}/api/gitlab/webhooks`, world.secret, event)).toBe(200);

    await loupe.until(
      () => gitlab.statuses.find((s) => s.sha === head && s.status !== "pending"),
      "a final status",
    );
    expect(gitlab.statuses.filter((s) => s.sha === head).map((s) => s.status)).toEqual([
      "pending",
      "success",
    ]);
    const summaries = gitlab.notes.filter((n) => n.body.startsWith("<!-- loupe:summary -->"));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.body).toContain(`incremental: 1 commit since ${oldHead.slice(0, 7)}`);
    for (const text of gitlab.written) expect(text).not.toMatch(/GitHub|[Cc]heck run|Re-run review/);
    expect(gitlab.publishes).toHaveLength(1); // nothing new to say, as on GitHub: no second review
    expect(gitlab.requests.some((r) => r.url.includes("/repository/compare?"))).toBe(true);
  });

  it("refuses to start with a token GitLab does not accept, or a partial setting, in one line naming it", async () => {
    const { GITLAB_URL, GITLAB_TOKEN, GITLAB_WEBHOOK_SECRET, ...appOnly } = world.env;
    const env = (extra: Record<string, string>) => ({ ...appOnly, ...extra });
    const refused = await runLoupeToExit({
      command: "node",
      env: env({
        GITLAB_URL: gitlab.url,
        GITLAB_TOKEN: "glpat-revoked",
        GITLAB_WEBHOOK_SECRET: world.secret,
      }),
    });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`loupe: GITLAB_TOKEN is not accepted by ${gitlab.url} (401)`);
    const partial = await runLoupeToExit({ command: "node", env: env({ GITLAB_URL: gitlab.url }) });
    expect(partial.code).toBe(1);
    expect(partial.output).toContain("GITLAB_TOKEN and GITLAB_WEBHOOK_SECRET are required with GITLAB_URL");
  });
});
