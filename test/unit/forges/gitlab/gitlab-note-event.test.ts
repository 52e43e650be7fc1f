// The pure mapping of GitLab's note events (Note Hook) to the conversation's comment events, on
// payloads built as GitLab's "Comment events" examples show them: a plain note is a conversation
// comment, a note in a discussion a review comment naming itself (its discussion's first note is
// read from GitLab), and everything else a clear skip.

import { describe, expect, it } from "@jest/globals";
import { gitLabNoteEvent } from "../../../../src/forges/gitlab/gitlab-note.ts";
import { noteEvent } from "../../../support/gitlab-webhooks.ts";

const HEAD = "a".repeat(40);
const note = (over: Partial<Parameters<typeof noteEvent>[0]["note"]> = {}) =>
  noteEvent({
    project: "group/sub/values",
    iid: 7,
    headSha: HEAD,
    note: { id: 301, body: "@loupe-bot review", author: "dev", discussionId: "abc123", type: null, ...over },
  });
const map = (payload: unknown, event = "Note Hook") =>
  gitLabNoteEvent({ event, deliveryId: "uuid-1", payload });

describe("gitLabNoteEvent", () => {
  it("maps a plain note on a merge request to a conversation comment of GitLab", () => {
    expect(map(note())).toEqual({
      kind: "comment",
      deliveryId: "uuid-1",
      source: "issue_comment",
      owner: "group/sub",
      repo: "values",
      pullNumber: 7,
      commentId: 301,
      body: "@loupe-bot review",
      author: { login: "dev", type: "User", role: null },
      inReplyTo: null,
      forge: "gitlab",
      pullAuthor: null,
      discussionId: "abc123",
    });
  });

  it("maps a note in a diff discussion or a thread to a review comment naming itself", () => {
    for (const type of ["DiffNote", "DiscussionNote"] as const) {
      const mapped = map(note({ type }));
      expect(mapped).toMatchObject({ source: "review_comment", inReplyTo: 301, discussionId: "abc123" });
    }
  });

  it("reads an internal note, which GitLab sends as a Confidential Note Hook, as any note", () => {
    expect(map(note(), "Confidential Note Hook")).toEqual(map(note()));
    expect(map(note(), "Confidential Note Hook")).toMatchObject({ kind: "comment", commentId: 301 });
  });

  it("names the merge request's author when the note is theirs (GitLab gives the author's id alone)", () => {
    const byAuthor = noteEvent({
      project: "group/sub/values",
      iid: 7,
      headSha: HEAD,
      note: { id: 302, body: "@loupe-bot why?", author: "maker", discussionId: "d", type: "DiffNote" },
      byMergeRequestAuthor: true,
    });
    expect(map(byAuthor)).toMatchObject({ kind: "comment", pullAuthor: "maker" });
    expect(map(note())).toMatchObject({ kind: "comment", pullAuthor: null });
  });

  it("marks project and group access token users as bots", () => {
    expect(map(note({ author: "project_12_bot_3f2a" }))).toMatchObject({ author: { type: "Bot" } });
    expect(map(note({ author: "group_4_bot" }))).toMatchObject({ author: { type: "Bot" } });
  });

  it("skips other events, other noteables, system notes, edits and payloads missing a field", () => {
    expect(map(note(), "Merge Request Hook")).toMatchObject({ kind: "skip" });
    const issue = { ...note(), object_attributes: { ...note().object_attributes, noteable_type: "Issue" } };
    expect(map(issue)).toEqual({ kind: "skip", message: "The note is not on a merge request." });
    const system = { ...note(), object_attributes: { ...note().object_attributes, system: true } };
    expect(map(system)).toEqual({ kind: "skip", message: "GitLab's system notes are not read." });
    const edit = { ...note(), object_attributes: { ...note().object_attributes, action: "update" } };
    expect(map(edit)).toEqual({ kind: "skip", message: "An edited note is not read." });
    expect(map({ ...note(), merge_request: null })).toEqual({
      kind: "skip",
      message: "The event names no merge request.",
    });
    const noBody = { ...note(), object_attributes: { ...note().object_attributes, note: "" } };
    expect(map(noBody)).toEqual({ kind: "skip", message: "The event carries no usable note." });
    expect(map(null)).toMatchObject({ kind: "skip" });
    expect(map("not json")).toMatchObject({ kind: "skip" });
  });
});
