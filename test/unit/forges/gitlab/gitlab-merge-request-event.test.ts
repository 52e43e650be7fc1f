import { describe, expect, it } from "@jest/globals";
import { gitLabReviewRequest } from "../../../../src/forges/gitlab/gitlab-merge-request.ts";
import { mergeRequestEvent } from "../../../support/gitlab-webhooks.ts";

const HEAD = "a".repeat(40);
const map = (payload: unknown, event = "Merge Request Hook") =>
  gitLabReviewRequest({ event, deliveryId: "uuid-1", payload });

describe("a GitLab merge request event", () => {
  it.each([
    ["open", {}, "merge_request.opened"],
    ["reopen", {}, "merge_request.reopened"],
    ["update", { oldrev: "b".repeat(40) }, "merge_request.updated"],
    ["update", { draft: { previous: true, current: false } }, "merge_request.ready"],
  ] as const)("%s %j asks for a review of the head", (action, extra, trigger) => {
    const mapped = map(
      mergeRequestEvent({ project: "group/sub/app", iid: 7, headSha: HEAD, action, ...extra }),
    );
    expect(mapped).toEqual({
      kind: "review",
      requests: [
        {
          owner: "group/sub",
          repo: "app",
          pullNumber: 7,
          headSha: HEAD,
          deliveryId: "uuid-1",
          trigger,
          rerun: false,
          pullRequest: null,
          forge: "gitlab",
        },
      ],
    });
  });

  it.each([
    ["an update without new commits", { action: "update" }, "unknown_action"],
    ["marked draft", { action: "update", draft: { previous: false, current: true } }, "unknown_action"],
    ["a close", { action: "close", state: "closed" }, "pull_request_closed"],
    ["a merge", { action: "merge", state: "merged" }, "pull_request_closed"],
  ] as const)("%s is a skip", (_name, input, reason) => {
    const mapped = map(mergeRequestEvent({ project: "group/app", iid: 7, headSha: HEAD, ...input }));
    expect(mapped).toMatchObject({ kind: "skip", reason });
  });

  it("is a clear skip for another event, or a payload missing what it needs", () => {
    expect(map({}, "Push Hook")).toMatchObject({ kind: "skip", reason: "unsupported_event" });
    expect(map({ object_kind: "merge_request" })).toMatchObject({
      kind: "skip",
      reason: "unsupported_event",
    });
    expect(map(null)).toMatchObject({ kind: "skip", reason: "unsupported_event" });
    const event = mergeRequestEvent({ project: "group/app", iid: 7, headSha: "not-a-sha", action: "open" });
    expect(map(event)).toMatchObject({ kind: "skip", reason: "no_pull_request" });
  });
});
