// The finding ledger through Probot: Loupe's earlier finding is a thread on GitHub (GraphQL, with
// who resolved it and its 👎 reactions), its first comment carries the identity marker, and the
// next push's review (a plain push, a force-push, a rebase) is scripted to raise the same finding
// again in other words. It is never posted twice; a writer's 👎 or resolution dismisses it, a
// reader's does not; and a dismissed finding comes back, saying so, once the code it points at is
// not the code it was dismissed on. Nothing new: no review is posted, and the check run says so.

import { describe, expect, it } from "@jest/globals";
import { parseRepoConfig } from "../../../src/config/repo-config.ts";
import { configDigest, reviewedMarker } from "../../../src/conversation/review-state.ts";
import { findingIdentity, identityMarker } from "../../../src/review/finding-identity.ts";
import { fingerprintMarker } from "../../../src/review/fingerprint.ts";
import { statusMarker } from "../../../src/review/render-reply.ts";
import {
  BOT_LOGIN,
  expectCleanEnd,
  mockReviewStart,
  PR,
  pullRequestPayload,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn } from "../../support/chat-turns.ts";

let head = "";
// An unrelated push: the flagged lines of src/service.ts stay as they are.
const app = useAppScenario({
  harness: { botLogin: BOT_LOGIN },
  beforePublish: (fx) => {
    head = fx.push("src/util.ts", "export const twice = (n: number) => 2 * n;\n");
  },
});

const loupe = { login: BOT_LOGIN, type: "Bot" };
const FP = "1111111111111111";
const POSTED = {
  title: "Record written before validation",
  explanation: "save writes the record to the database before validating it, so an invalid record is stored.",
};
/** The model's words on the next push: the same claim, said differently. */
const REWORDED = finding({
  title: "Validation runs after the record is written",
  explanation: "The record is written to the database before validate runs, so invalid records get stored.",
});

type Scope = "push" | "force-push" | "rebase";

function firstComment(code: string): string {
  const identity = findingIdentity({ path: "src/service.ts", code, ...POSTED });
  return `🟠 **High** · ${POSTED.title}\n\n${POSTED.explanation}\n\n${fingerprintMarker(FP)}\n\n${identityMarker(identity)}`;
}

interface ThreadState {
  readonly resolvedBy?: string;
  readonly thumbsDown?: string;
  /** Loupe's answer to this writer's reply, which the reply loop judged a dismissal. */
  readonly repliedBy?: string;
  /** The code the finding was posted on (default: the lines as they still are). */
  readonly code?: string;
  /** GitHub marks the thread outdated: the push changed the lines it is on. */
  readonly outdated?: boolean;
}

function mockPush(scope: Scope, thread: ThreadState, permissions: Record<string, string>) {
  const fx = app.fx;
  const gh = mockReviewStart(fx, { headSha: head, compareData: fx.compareData(head) });
  const digest = configDigest((parseRepoConfig(null) as { ok: true; config: unknown }).config);
  const base = scope === "rebase" ? fx.baseSha : fx.mergeBaseSha;
  const marker = reviewedMarker({ headSha: fx.headSha, mergeBaseSha: base, configDigest: digest });
  const body = firstComment(thread.code ?? "db.write(record);");
  gh.listReviewComments(PR, [{ id: 11, user: loupe, body }]).listReviews(PR, [
    { id: 1, user: loupe, body: `Earlier review.\n${marker}`, submitted_at: "2026-01-01T00:00:00Z" },
  ]);
  if (scope !== "rebase") {
    gh.compare(`${fx.headSha}...${head}`, {
      status: scope === "push" ? "ahead" : "diverged",
      ahead_by: 1,
      behind_by: scope === "push" ? 0 : 1,
      files: [],
    });
  }
  for (const [login, permission] of Object.entries(permissions)) gh.permission(login, permission);
  const node = {
    id: "T_1",
    // Loupe resolves the thread when it records a reply's dismissal.
    isResolved: thread.resolvedBy !== undefined || thread.repliedBy !== undefined,
    isOutdated: thread.outdated === true,
    path: "src/service.ts",
    line: 2,
    startLine: null,
    resolvedBy:
      thread.resolvedBy === undefined
        ? { login: "loupe-test", __typename: "Bot" }
        : { login: thread.resolvedBy, __typename: "User" },
    comments: {
      nodes: [
        { databaseId: 11, body, author: { login: "loupe-test", __typename: "Bot" } },
        ...(thread.repliedBy === undefined
          ? []
          : [
              {
                databaseId: 12,
                body: "@loupe intended.",
                author: { login: thread.repliedBy, __typename: "User" },
              },
              {
                databaseId: 13,
                body: `Understood.\n\n${statusMarker("dismissed", thread.repliedBy)}`,
                author: { login: "loupe-test", __typename: "Bot" },
              },
            ]),
      ],
    },
    root: {
      nodes: [
        {
          reactions: {
            nodes:
              thread.thumbsDown === undefined
                ? []
                : [
                    {
                      createdAt: "2026-01-02T00:00:00Z",
                      user: { login: thread.thumbsDown, __typename: "User" },
                    },
                  ],
          },
        },
      ],
    },
  };
  // Read for the ledger before the loop, and again after it for threads to resolve (an outdated
  // one Loupe then resolves).
  gh.graphql(
    (query, variables) =>
      query.includes("resolveReviewThread")
        ? { resolveReviewThread: { thread: { id: variables.threadId, isResolved: true } } }
        : {
            repository: {
              pullRequest: {
                reviewThreads: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [node] },
              },
            },
          },
    thread.outdated === true ? 3 : 2,
  );
  return gh;
}

const firstMessage = () =>
  (app.provider.requests[0]!.body as { messages: { content: string }[] }).messages[1]!.content;
const outputOf = (gh: ReturnType<typeof mockReviewStart>) =>
  gh.completion().output as { title: string; summary: string };

async function reviewPush(
  scope: Scope,
  thread: ThreadState,
  permissions: Record<string, string> = {},
  findings = [REWORDED],
) {
  const h = await app.start([{ body: stopTurn(review(findings)) }]);
  const gh = mockPush(scope, thread, permissions);
  await h.receive("pull_request", pullRequestPayload(app.fx, "synchronize", head));
  await h.drain();
  return { h, gh };
}

describe("the finding ledger on the next push", () => {
  it.each<Scope>(["push", "force-push", "rebase"])(
    "%s: a finding reworded by the model is not posted again; the check run says no new findings",
    async (scope) => {
      const { h, gh } = await reviewPush(scope, {});
      expect(gh.posted("/reviews")).toEqual([]);
      expect(firstMessage()).toContain(
        `{"status":"open","path":"src/service.ts","line":2,"title":"${POSTED.title}"}`,
      );
      expect(firstMessage()).toContain('Do not repeat an "open" finding');
      const output = outputOf(gh);
      expect(output.title).toBe("Loupe: no new findings (1 open, 0 dismissed)");
      expect(output.summary).toContain(
        "Finding ledger: 0 new this review, 1 still open, 0 fixed, 0 withdrawn, 0 dismissed.",
      );
      expectCleanEnd(h, app.provider, [gh]);
    },
  );

  it.each<Scope>(["push", "force-push", "rebase"])(
    "%s: the finding's lines changed and the model did not raise it again: resolved, and counted fixed",
    async (scope) => {
      const { h, gh } = await reviewPush(scope, { outdated: true }, {}, []);
      expect(gh.posted("/reviews")).toEqual([]);
      const resolved = gh.posted("/graphql").filter((b) => String(b.query).includes("resolveReviewThread"));
      expect(resolved.map((b) => (b.variables as { threadId: string }).threadId)).toEqual(["T_1"]);
      const output = outputOf(gh);
      expect(output.title).toBe("Loupe: no findings");
      expect(output.summary).toContain(
        "Finding ledger: 0 new this review, 0 still open, 1 fixed, 0 withdrawn, 0 dismissed.",
      );
      expectCleanEnd(h, app.provider, [gh]);
    },
  );

  it.each<[Scope, ThreadState]>([
    ["push", { thumbsDown: "octocat" }],
    ["force-push", { thumbsDown: "octocat" }],
    ["rebase", { thumbsDown: "octocat" }],
    ["push", { resolvedBy: "octocat" }],
    ["force-push", { resolvedBy: "octocat" }],
    ["rebase", { resolvedBy: "octocat" }],
    ["push", { repliedBy: "octocat" }],
    ["force-push", { repliedBy: "octocat" }],
    ["rebase", { repliedBy: "octocat" }],
  ])("%s: dismissed by a writer (%j), it is not raised again", async (scope, thread) => {
    const { h, gh } = await reviewPush(
      scope,
      thread,
      thread.repliedBy === undefined ? { octocat: "write" } : {},
    );
    expect(gh.posted("/reviews")).toEqual([]);
    expect(firstMessage()).toContain('{"status":"dismissed","path":"src/service.ts","line":2,');
    const output = outputOf(gh);
    expect(output.title).toBe("Loupe: no new findings (0 open, 1 dismissed)");
    expect(output.summary).toContain(
      "0 new this review, 0 still open, 0 fixed, 0 withdrawn, 1 dismissed (1 dismissed earlier, not raised again).",
    );
    const how =
      thread.thumbsDown !== undefined
        ? "a 👎 on the finding, 2026-01-02"
        : thread.resolvedBy !== undefined
          ? "resolved the thread, code unchanged"
          : "a reply in the thread";
    expect(output.summary).toContain(`src/service.ts:2 · ${POSTED.title} — dismissed by octocat (${how})`);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it.each<ThreadState>([{ thumbsDown: "reader" }, { resolvedBy: "reader" }])(
    "a reader's %j dismisses nothing: the finding stays open",
    async (thread) => {
      const { h, gh } = await reviewPush("push", thread, { reader: "read" });
      expect(gh.posted("/reviews")).toEqual([]);
      expect(outputOf(gh).title).toBe("Loupe: no new findings (1 open, 0 dismissed)");
      expectCleanEnd(h, app.provider, [gh]);
    },
  );

  it.each<ThreadState>([{ thumbsDown: "octocat" }, { resolvedBy: "octocat" }, { repliedBy: "octocat" }])(
    "a finding dismissed by %j whose code changed is raised again, and says so",
    async (way) => {
      const h = await app.start([{ body: stopTurn(review([REWORDED])) }]);
      const thread = { ...way, code: "db.write(record, { sync: false });" };
      const gh = mockPush("push", thread, way.repliedBy === undefined ? { octocat: "write" } : {});
      gh.listReviews(PR, []).createReview(PR);
      await h.receive("pull_request", pullRequestPayload(app.fx, "synchronize", head));
      await h.drain();
      const posted = gh.posted("/reviews");
      expect(posted).toHaveLength(1);
      const comments = posted[0]!.comments as { path: string; line: number; body: string }[];
      expect(comments).toHaveLength(1);
      expect(comments[0]!.body).toContain("Raised again: this finding was dismissed earlier");
      expect(comments[0]!.body).toMatch(/<!-- loupe:finding code=[0-9a-f]{16} place=[0-9a-f]{8} claim=/);
      expect(outputOf(gh).summary).toContain("Finding ledger: 1 new this review");
      expectCleanEnd(h, app.provider, [gh]);
    },
  );
});
