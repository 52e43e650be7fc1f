// The conversation on GitLab through a real server process, against the fake GitLab and a scripted
// model: a merge request reviewed, then `@loupe-bot review` from a Reporter refused (no award
// emoji, no review), the same from a Developer obeyed (👀 as an award emoji, a re-review with its
// commit statuses), and a Developer's reply in Loupe's discussion answered in that discussion,
// which is resolved since the finding is withdrawn.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { stopTurn } from "../../support/chat-turns.ts";
import type { FakeGitLab } from "../../support/fake-gitlab.ts";
import { deliverGitLabEvent, mergeRequestEvent, noteEvent } from "../../support/gitlab-webhooks.ts";
import { type GitLabBesideAppWorld, startGitLabWorldBesideApp } from "../../support/gitlab-world.ts";
import type { LoupeProcess } from "../../support/loupe-process.ts";
import { createValuesRepo, v10Review } from "../../support/values-repo.ts";

const REPLY = "@loupe-bot this is intended: we bumped it on purpose.";

let world: GitLabBesideAppWorld;
let gitlab: FakeGitLab;
let loupe: LoupeProcess;
let head: string;

const review = stopTurn(v10Review());

const hook = () => `${loupe.url}/api/gitlab/webhooks`;
const deliverNote = (note: {
  id: number;
  body: string;
  author: string;
  discussionId: string;
  type: "DiffNote" | null;
}) =>
  deliverGitLabEvent(
    hook(),
    world.secret,
    noteEvent({ project: "team/values", iid: 4, headSha: head, note }),
    {
      eventHeader: "Note Hook",
    },
  );
const finalStatuses = () => gitlab.statuses.filter((s) => s.sha === head && s.status !== "pending");

beforeAll(async () => {
  world = await startGitLabWorldBesideApp({
    name: "talk",
    project: "team/values",
    fixture: createValuesRepo,
    members: { dev: 30, rep: 20 },
    script: [
      { body: review },
      { body: review },
      {
        when: "bumped it on purpose",
        turn: {
          body: stopTurn({
            reply: "Understood: the change to 100 is intended, so this is withdrawn.",
            finding_status: "withdrawn",
          }),
        },
      },
    ],
  });
  ({ gitlab, loupe } = world);
  head = gitlab.addMergeRequest({ project: "team/values", iid: 4, sourceBranch: "change-v10" }).diffRefs
    .head_sha;
  const opened = mergeRequestEvent({ project: "team/values", iid: 4, headSha: head, action: "open" });
  expect(await deliverGitLabEvent(hook(), world.secret, opened)).toBe(200);
  await loupe.until(() => finalStatuses()[0], "the first review's final status");
}, 90_000);

/** The server's line for a note event it has handled (after answering the webhook). */
const handled = (noteId: number) =>
  loupe
    .output()
    .split("\n")
    .find((line) => line.includes("GitLab note handled") && line.includes(`"note":${noteId}`));

afterAll(async () => {
  await world?.stop();
});

describe("the conversation on a GitLab merge request", () => {
  it("refuses `@loupe-bot review` from a Reporter and obeys it from a Developer", async () => {
    const asked = gitlab.addNote({
      project: "team/values",
      iid: 4,
      author: "rep",
      body: "@loupe-bot review",
    });
    expect(await deliverNote({ ...asked, discussionId: asked.discussionId, type: null })).toBe(200);
    // Decided after the webhook is answered (GitLab asked who wrote it): no 👀, nothing queued.
    await loupe.until(() => handled(asked.id), "the Reporter's note handled");
    expect(gitlab.awards).toEqual([]);

    const obeyed = gitlab.addNote({
      project: "team/values",
      iid: 4,
      author: "dev",
      body: "@loupe-bot review",
    });
    expect(await deliverNote({ ...obeyed, discussionId: obeyed.discussionId, type: null })).toBe(200);
    await loupe.until(() => handled(obeyed.id), "the Developer's note handled");
    expect(gitlab.awards).toEqual([
      expect.objectContaining({ noteId: obeyed.id, name: "eyes", user: gitlab.username }),
    ]);
    await loupe.until(() => finalStatuses()[1], "the re-review's final status");
    expect(gitlab.statuses.filter((s) => s.sha === head).map((s) => s.status)).toEqual([
      "pending",
      "success",
      "pending",
      "success",
    ]);
    // The members API was asked about each person (by user id, as GitLab's members endpoint takes it).
    expect(gitlab.requests.filter((r) => /\/members\/all\/\d+$/.test(r.url)).length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it("answers a Developer's reply in Loupe's discussion there, and resolves the withdrawn finding's discussion", async () => {
    const finding = gitlab.notes.find((n) => n.author === gitlab.username && n.type === "DiffNote")!;
    expect(finding.body).toContain("v10 no longer equals its name");
    const reply = gitlab.addNote({
      project: "team/values",
      iid: 4,
      author: "dev",
      body: REPLY,
      replyTo: finding,
    });
    expect(await deliverNote({ ...reply, type: "DiffNote" })).toBe(200);
    await loupe.until(() => handled(reply.id), "the reply handled");
    expect(gitlab.awards.at(-1)).toMatchObject({ noteId: reply.id, name: "eyes" });

    const answer = await loupe.until(
      () =>
        gitlab.notes.find(
          (n) => n.discussionId === finding.discussionId && n.author === gitlab.username && n.id > reply.id,
        ),
      "Loupe's answer in the discussion",
    );
    expect(answer.body).toContain("Understood: the change to 100 is intended");
    await loupe.until(() => (finding.resolved ? true : undefined), "the discussion resolved");
    expect(finding.resolvedBy).toBe(gitlab.username);
    expect(loupe.output()).not.toContain(gitlab.token);
  });
  it("answers `@loupe-bot help` in a merge request's words: no pull request, no check run", async () => {
    const asked = gitlab.addNote({ project: "team/values", iid: 4, author: "dev", body: "@loupe-bot help" });
    expect(await deliverNote({ ...asked, discussionId: asked.discussionId, type: null })).toBe(200);
    await loupe.until(() => handled(asked.id), "the help note handled");
    const help = gitlab.notes.find(
      (n) => n.author === gitlab.username && n.body.startsWith("Loupe's commands:"),
    );
    expect(help?.body).toContain(
      "(the whole merge request when the history does not allow it; the summary note says why)",
    );
    expect(help?.body).toContain("review the whole merge request again.");
    expect(help?.body).not.toMatch(/pull request|check run|GitHub/);
  });
});
