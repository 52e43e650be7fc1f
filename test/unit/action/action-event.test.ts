// The workflow's triggering event, mapped to what the action does, on GitHub's own example
// payloads (@octokit/webhooks-examples): both pull request events review, a comment that asks
// with `@loupe review` becomes a command whose author is checked later, the rest is skipped.

import { describe, expect, it } from "@jest/globals";
import { toActionEvent } from "../../../src/action/action-event.ts";
import { webhookExample } from "../../support/webhook-examples.ts";

const options = { mention: "loupe", botLogin: "github-actions[bot]", runId: "4711" };

/** A workflow's payload: GitHub's example without the App installation a workflow never has. */
function workflowPayload(event: string, action: string): Record<string, unknown> {
  const { installation: _installation, ...payload } = webhookExample(event, action);
  return payload;
}

function comment(body: string, login = "maintainer", type = "User"): Record<string, unknown> {
  const payload = workflowPayload("issue_comment", "created");
  const issue = payload.issue as Record<string, unknown>;
  return {
    ...payload,
    issue: { ...issue, pull_request: { url: "https://api.github.com/repos/o/r/pulls/1" } },
    comment: { ...(payload.comment as object), body, user: { login, type } },
  };
}

describe("the triggering event", () => {
  it.each(["pull_request", "pull_request_target"])("%s.opened reviews its pull request", (name) => {
    const payload = workflowPayload("pull_request", "opened");
    const event = toActionEvent(name, payload, options);
    const pr = payload.pull_request as { number: number; head: { sha: string } };
    expect(event).toMatchObject({
      kind: "review",
      request: { pullNumber: pr.number, headSha: pr.head.sha, rerun: false, deliveryId: "4711" },
    });
  });

  it("pull_request_target.closed is skipped, named as the workflow's event", () => {
    const event = toActionEvent("pull_request_target", workflowPayload("pull_request", "closed"), options);
    expect(event).toEqual({ kind: "skip", message: "pull_request_target.closed is not reviewed." });
  });

  it("asks for a review with no App installation, as a workflow's event has none", () => {
    const event = toActionEvent("pull_request", workflowPayload("pull_request", "opened"), options);
    if (event.kind !== "review") throw new Error(`not a review: ${JSON.stringify(event)}`);
    expect(Object.keys(event.request)).not.toContain("installationId");
  });

  it("a pull request event with no repository, or no payload, is skipped with why", () => {
    const { repository: _repository, ...payload } = workflowPayload("pull_request", "opened");
    expect(toActionEvent("pull_request", payload, options)).toEqual({
      kind: "skip",
      message: "The event names no repository.",
    });
    expect(toActionEvent("pull_request_target", null, options)).toEqual({
      kind: "skip",
      message: "The event has no payload.",
    });
  });

  it("`@loupe review` and `@loupe full review` are commands of their author", () => {
    expect(toActionEvent("issue_comment", comment("@loupe review"), options)).toMatchObject({
      kind: "command",
      login: "maintainer",
      full: false,
    });
    expect(toActionEvent("issue_comment", comment("@Loupe full review."), options)).toMatchObject({
      kind: "command",
      full: true,
    });
  });

  it("other comments, bots, other commands and other events are skipped", () => {
    const kinds = [
      toActionEvent("issue_comment", comment("looks good"), options),
      toActionEvent("issue_comment", comment("> @loupe review"), options),
      toActionEvent("issue_comment", comment("@loupe review", "dependabot[bot]", "Bot"), options),
      toActionEvent("issue_comment", comment("@loupe pause"), options),
      toActionEvent("push", workflowPayload("pull_request", "opened"), options),
    ].map((event) => event.kind);
    expect(kinds).toEqual(["skip", "skip", "skip", "skip", "skip"]);
  });

  it("a comment on a plain issue is skipped", () => {
    const payload = comment("@loupe review");
    const { pull_request: _pr, ...issue } = payload.issue as Record<string, unknown>;
    expect(toActionEvent("issue_comment", { ...payload, issue }, options).kind).toBe("skip");
  });
});
