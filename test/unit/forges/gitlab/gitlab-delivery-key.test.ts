import { describe, expect, it } from "@jest/globals";
import { gitLabDeliveryKey } from "../../../../src/forges/gitlab/gitlab-delivery-key.ts";
import { mergeRequestEvent, noteEvent } from "../../../support/gitlab-webhooks.ts";

const HEAD = "a".repeat(40);
const key = (payload: unknown, idempotencyKey?: string, event = "Merge Request Hook") =>
  gitLabDeliveryKey({ event, idempotencyKey }, payload, JSON.stringify(payload));

describe("which GitLab deliveries are one event", () => {
  const open = mergeRequestEvent({ project: "g/app", iid: 1, headSha: HEAD, action: "open" });

  it("is GitLab's Idempotency-Key when it sent one", () => {
    expect(key(open, "k-1")).toBe("gitlab:key:k-1");
    expect(key(mergeRequestEvent({ project: "g/app", iid: 2, headSha: HEAD, action: "open" }), "k-1")).toBe(
      "gitlab:key:k-1",
    );
  });

  it("else a merge request event's project, merge request, action, head and previous head", () => {
    expect(key(open)).toBe(`gitlab:mr:1:1:open:${HEAD}:`);
    const push = mergeRequestEvent({
      project: "g/app",
      iid: 1,
      headSha: HEAD,
      action: "update",
      oldrev: "b".repeat(40),
    });
    expect(key(push)).toBe(`gitlab:mr:1:1:update:${HEAD}:${"b".repeat(40)}`);
    expect(key(push)).not.toBe(key(open));
  });

  it("else a note event's note and action", () => {
    const note = (action?: "create" | "update") =>
      noteEvent({
        project: "g/app",
        iid: 1,
        headSha: HEAD,
        note: { id: 9, body: "hi", author: "dev", discussionId: "d", type: null },
        ...(action ? { action } : {}),
      });
    expect(key(note(), undefined, "Note Hook")).toBe("gitlab:note:1:9:create");
    expect(key(note("update"), undefined, "Note Hook")).toBe("gitlab:note:1:9:update");
  });

  it("else the digest of the event and its body", () => {
    const push = { object_kind: "push", after: HEAD };
    expect(key(push, undefined, "Push Hook")).toMatch(/^gitlab:body:[0-9a-f]{64}$/);
    expect(key(push, undefined, "Push Hook")).not.toBe(
      key({ ...push, after: "b".repeat(40) }, undefined, "Push Hook"),
    );
  });
});
