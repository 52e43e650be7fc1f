import { describe, expect, it } from "@jest/globals";
import { toReviewRequest } from "../../../../src/forges/github/webhooks/to-review-request.ts";
import { webhookExample } from "../../../support/webhook-examples.ts";

const options = { appId: 123, rerunIdentifier: "rerun" };
const HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"; // the examples' own head SHA

function map(name: string, payload: unknown, id = "delivery-1") {
  return toReviewRequest({ name, id, payload }, options);
}

describe("toReviewRequest: pull_request", () => {
  it.each(["opened", "reopened", "synchronize", "ready_for_review"])(
    "maps %s to a review request",
    (action) => {
      const payload = webhookExample("pull_request", action);
      payload.installation = { id: 1 }; // some examples have none
      const mapped = map("pull_request", payload);
      expect(mapped).toEqual({
        kind: "review",
        requests: [
          {
            deliveryId: "delivery-1",
            trigger: `pull_request.${action}`,
            forge: "github",
            installationId: 1,
            owner: "Codertocat",
            repo: "Hello-World",
            pullNumber: 2,
            headSha: HEAD,
            rerun: false,
            pullRequest: {
              title: payload.pull_request.title,
              body: payload.pull_request.body,
              url: "https://github.com/Codertocat/Hello-World/pull/2",
              baseRef: "master",
              baseSha: payload.pull_request.base.sha,
              draft: false,
              author: { login: "Codertocat", isBot: false, role: "owner" },
              open: true,
              labels: payload.pull_request.labels.map((l: { name: string }) => l.name),
            },
          },
        ],
      });
    },
  );

  it("flags drafts and bot authors (the job decides with the repository config)", () => {
    const payload = webhookExample("pull_request", "opened");
    payload.pull_request.draft = true;
    payload.pull_request.user.type = "Bot";
    const mapped = map("pull_request", payload);
    if (mapped.kind !== "review") throw new Error("expected a review");
    expect(mapped.requests[0]!.pullRequest).toMatchObject({ draft: true, author: { isBot: true } });
  });

  it.each([
    ["closed", "unknown_action"],
    ["converted_to_draft", "unknown_action"],
    ["labeled", "unknown_action"],
  ])("skips pull_request.%s", (action, reason) => {
    const payload = webhookExample("pull_request", action);
    payload.installation = { id: 1 };
    expect(map("pull_request", payload)).toMatchObject({ kind: "skip", reason });
  });

  it("skips a synchronize on a pull request that is already closed", () => {
    const payload = webhookExample("pull_request", "synchronize");
    payload.pull_request.state = "closed";
    expect(map("pull_request", payload)).toMatchObject({ kind: "skip", reason: "pull_request_closed" });
  });

  it("skips events without an installation and payloads missing the pull request", () => {
    const noInstallation = webhookExample("pull_request", "opened");
    delete noInstallation.installation;
    expect(map("pull_request", noInstallation)).toMatchObject({ kind: "skip", reason: "no_installation" });
    const broken = webhookExample("pull_request", "opened");
    broken.pull_request.head.sha = "not-a-sha";
    expect(map("pull_request", broken)).toMatchObject({ kind: "skip", reason: "no_pull_request" });
    expect(map("pull_request", null)).toMatchObject({ kind: "skip", reason: "unsupported_event" });
    expect(map("issues", { installation: { id: 1 } })).toMatchObject({
      kind: "skip",
      reason: "unsupported_event",
    });
  });
});

describe("toReviewRequest: check_run", () => {
  it("maps rerequested with an empty pull_requests[] (fork) through external_id", () => {
    const payload = webhookExample("check_run", "rerequested");
    expect(payload.check_run.pull_requests).toEqual([]); // the example itself is fork-like
    payload.check_run.app.id = 123; // adapted: Loupe's app id
    payload.check_run.external_id = "loupe:pr=7";
    const mapped = map("check_run", payload);
    expect(mapped).toMatchObject({
      kind: "review",
      requests: [
        {
          trigger: "check_run.rerequested",
          installationId: 1,
          owner: "github",
          repo: "hello-world",
          pullNumber: 7,
          headSha: "d6fde92930d4715a2b49857d24b940956b26d2d3",
          rerun: true,
          pullRequest: null,
        },
      ],
    });
  });

  it("maps requested_action `rerun` using pull_requests[] when external_id is absent", () => {
    const payload = webhookExample("check_run", "requested_action");
    payload.check_run.app.id = 123;
    payload.requested_action.identifier = "rerun"; // the example's action is "lgtm"
    expect(map("check_run", payload)).toMatchObject({
      kind: "review",
      requests: [
        { trigger: "check_run.requested_action", pullNumber: 26764, owner: "electron", rerun: true },
      ],
    });
  });

  it("skips other actions, other apps' runs and runs with no pull request", () => {
    const lgtm = webhookExample("check_run", "requested_action");
    lgtm.check_run.app.id = 123;
    expect(map("check_run", lgtm)).toMatchObject({ kind: "skip", reason: "unknown_action" });

    const foreign = webhookExample("check_run", "rerequested");
    expect(map("check_run", foreign)).toMatchObject({ kind: "skip", reason: "foreign_check_run" });

    const orphan = webhookExample("check_run", "rerequested");
    orphan.check_run.app.id = 123;
    expect(map("check_run", orphan)).toMatchObject({ kind: "skip", reason: "no_pull_request" });
  });

  it.each(["created", "completed"])("ignores Loupe's own check_run.%s", (action) => {
    const payload = webhookExample("check_run", action);
    payload.installation = { id: 1 };
    expect(map("check_run", payload)).toMatchObject({ kind: "skip", reason: "own_check_event" });
  });
});

describe("toReviewRequest: check_suite", () => {
  it("maps rerequested to one re-run per pull request of the suite", () => {
    const payload = webhookExample("check_suite", "rerequested");
    payload.check_suite.app.id = 123;
    payload.check_suite.pull_requests.push(structuredClone(payload.check_suite.pull_requests[0]));
    payload.check_suite.pull_requests[1].number = 3;
    const mapped = map("check_suite", payload);
    expect(mapped).toMatchObject({
      kind: "review",
      requests: [
        {
          trigger: "check_suite.rerequested",
          pullNumber: 2,
          headSha: HEAD,
          rerun: true,
          installationId: 957387,
        },
        { pullNumber: 3 },
      ],
    });
  });

  it("skips a suite without pull requests, requested/completed suites and other apps' suites", () => {
    const fork = webhookExample("check_suite", "rerequested");
    fork.check_suite.app.id = 123;
    fork.check_suite.pull_requests = [];
    expect(map("check_suite", fork)).toMatchObject({ kind: "skip", reason: "no_pull_request" });
    const requested = webhookExample("check_suite", "requested");
    requested.installation = { id: 1 };
    expect(map("check_suite", requested)).toMatchObject({ kind: "skip", reason: "unknown_action" });
    expect(map("check_suite", webhookExample("check_suite", "rerequested"))).toMatchObject({
      kind: "skip",
      reason: "foreign_check_run",
    });
  });
});
