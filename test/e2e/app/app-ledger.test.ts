// The finding ledger through Loupe as a real server process, the fake GitHub and the scripted
// model. One pull request: a finding is posted, the same head is reviewed again, then five pushes
// that do not touch the flagged line (another file, an edit further down the file, a line added
// above it, a force-push that rewrites the history, another file again), each time with the model
// saying the same thing in other words: one comment in all. Another: a reader's 👎 dismisses
// nothing; a writer's 👎 dismisses it through a push and a force-push; once its line changes it is
// raised again, saying so. A third: a writer resolving the thread dismisses it through a rebase,
// and unresolving it undoes that. A fourth: a reader's reply gets no answer and dismisses nothing;
// a writer's, judged a dismissal by the reply loop, is recorded in Loupe's answer and holds after a
// push. The model's turns are one script for the whole file, so its tests run together, in order.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import { stopTurn } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import type { CheckRun } from "../../support/fake-github-checks.ts";
import {
  issueCommentEvent,
  pullRequestEvent,
  reviewCommentReplyEvent,
} from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-e2e-ledger-${process.pid}-${Date.now()}`;
const API_KEY = `test-key-e2e-ledger-${process.pid}-${Date.now()}`;
const REPO = "ledger";

let github: FakeGitHub;
let provider: ScriptedProvider;
let loupe: LoupeProcess;
let fixture: FixtureRepo;

/** One claim about `export const a = …;`, in the words the model uses on each review. */
const WORDINGS = [
  {
    title: "Constant a changed from 1 to 2 without explanation",
    explanation:
      "Callers that rely on the constant being 1 will now read 2, and the pull request does not explain the change.",
  },
  {
    title: "The value of constant a is now 2 instead of 1",
    explanation:
      "Code relying on the constant being 1 now reads 2; the change is not explained in the pull request.",
  },
  {
    title: "Unexplained change of the constant a",
    explanation: "The constant changed from 1 to 2. Callers relying on the old value will read 2.",
  },
  {
    title: "Constant a now 2",
    explanation: "Callers that rely on a being 1 read 2 now; explain the change.",
  },
  {
    title: "a changed to 2",
    explanation:
      "The pull request changes the constant and does not explain why; callers relying on 1 read 2.",
  },
  {
    title: "Changed constant a (1 → 2) is not explained",
    explanation: "Every caller of the constant now reads 2 instead of 1.",
  },
];

function reviewTurn(wording: number, line: number) {
  return {
    body: stopTurn({
      summary: "The constant changed.",
      findings: [
        {
          severity: "low",
          ...WORDINGS[wording % WORDINGS.length]!,
          path: "src/a.ts",
          line,
          evidence: "export const a =",
          recommendation: "Say why in the description.",
        },
      ],
      notes: [],
    }),
  };
}

beforeAll(async () => {
  fixture = createOneChangeRepo([
    { branch: "quiet", a: 2 },
    { branch: "dismissed", a: 3 },
    { branch: "resolved", a: 4 },
    { branch: "replied", a: 5 },
  ]);
  github = await startFakeGitHub();
  github.addRepository({
    owner: "octo",
    repo: REPO,
    source: fixture,
    collaborators: { Codertocat: "maintain", octocat: "write", reader: "read" },
  });
  provider = await startScriptedProvider([
    // #1: the first review, the same head again, then five pushes.
    reviewTurn(0, 1),
    reviewTurn(1, 1),
    reviewTurn(2, 1),
    reviewTurn(3, 1),
    reviewTurn(4, 2),
    reviewTurn(5, 2),
    reviewTurn(1, 2),
    // #2: the first review, after a reader's 👎, after a writer's 👎, a force-push, a changed line.
    reviewTurn(0, 1),
    reviewTurn(2, 1),
    reviewTurn(3, 1),
    reviewTurn(4, 1),
    reviewTurn(5, 1),
    // #3: the first review, after a writer resolved the thread, a rebase, after it was unresolved.
    reviewTurn(0, 1),
    reviewTurn(1, 1),
    reviewTurn(2, 1),
    reviewTurn(3, 1),
    // #4: the first review, a push after a reader's reply, the answer to a writer's reply, a push.
    reviewTurn(0, 1),
    reviewTurn(3, 1),
    {
      body: stopTurn({
        reply: "Understood: the new value is intended, so Loupe will leave it.",
        finding_status: "dismissed",
      }),
    },
    reviewTurn(4, 1),
  ]);
  loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({ github, providerBaseURL: provider.baseURL, webhookSecret: SECRET, apiKey: API_KEY }),
  });
}, 60_000);

afterAll(async () => {
  await loupe?.stop();
  await provider?.stop();
  await github?.stop();
  fixture?.dispose();
});

const target = () => ({
  owner: "octo",
  repo: REPO,
  defaultBranch: "main",
  installationId: 1,
  htmlBase: github.url,
});

const completed = (number: number) =>
  github.checkRuns.filter(
    (r) =>
      r.repo === REPO &&
      r.externalId === formatExternalId(number) &&
      r.history.at(-1)?.status === "completed",
  );

async function deliver(event: string, payload: unknown): Promise<void> {
  const response = await deliverWebhook({ url: loupe.webhookUrl, event, payload, secret: SECRET });
  expect(response.status).toBeLessThan(300);
}

/** Delivers the event and waits for the pull request's next completed check run. */
async function reviewed(number: number, event: () => Promise<void>): Promise<CheckRun["history"][number]> {
  const before = completed(number).length;
  await event();
  const run = await loupe.until(() => completed(number)[before], `check run ${before + 1} of #${number}`);
  return run.history.at(-1)!;
}

/** Commits on the branch, pushes it to the fake GitHub (force: history may be rewritten), delivers synchronize. */
async function push(number: number, branch: string, change: (repo: FixtureRepo) => void) {
  fixture.checkout(branch);
  change(fixture);
  github.pushBranch("octo", REPO, fixture, branch);
  fixture.checkout("main");
  const pr = github.addPullRequest({ owner: "octo", repo: REPO, number, headRef: branch });
  return reviewed(number, () => deliver("pull_request", pullRequestEvent("synchronize", target(), pr)));
}

const commit = (path: string, content: string) => (repo: FixtureRepo) => {
  repo.write(path, content);
  repo.commit(`edit ${path}`);
};

const reviewsOf = (number: number) =>
  github.reviews.filter((r) => r.repo === REPO && r.pullNumber === number);
const commentsOf = (number: number) => reviewsOf(number).flatMap((r) => r.comments);

describe("the finding ledger through a real server process", () => {
  it("a re-run of the same head and five pushes that leave the flagged line alone post nothing new", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: REPO, number: 1, headRef: "quiet" });
    const first = await reviewed(1, () => deliver("pull_request", pullRequestEvent("opened", target(), pr)));
    expect(first.output?.title).toBe("Loupe: 1 finding (1 low)");
    expect(commentsOf(1)).toHaveLength(1);
    expect(commentsOf(1)[0]!.body).toMatch(/<!-- loupe:finding code=[0-9a-f]{16} /);

    // The same head again, asked for by a maintainer.
    const again = await reviewed(1, () =>
      deliver("issue_comment", issueCommentEvent(target(), pr, 41001, "@loupe review")),
    );
    expect(again.output?.title).toBe("Loupe: no new findings (1 open, 0 dismissed)");
    expect(again.output?.summary).toContain("Finding ledger: 0 new this review, 1 still open, 0 fixed");

    const pushes: [string, (repo: FixtureRepo) => void][] = [
      ["another file", commit("src/b.ts", "export const b = 1;\n")],
      ["an edit further down the file", commit("src/a.ts", "export const a = 2;\nexport const c = 3;\n")],
      ["a line added above", commit("src/a.ts", "// Constants.\nexport const a = 2;\nexport const c = 3;\n")],
      [
        "a force-push that squashes the branch",
        (repo) => {
          repo.git("reset", "--soft", "main");
          repo.commit("one commit");
        },
      ],
      ["another file again", commit("src/d.ts", "export const d = 4;\n")],
    ];
    for (const [what, change] of pushes) {
      const run = await push(1, "quiet", change);
      expect([what, run.output?.title]).toEqual([what, "Loupe: no new findings (1 open, 0 dismissed)"]);
    }
    expect(reviewsOf(1)).toHaveLength(1);
    expect(commentsOf(1)).toHaveLength(1);
    // Each review told the model what is already open.
    expect(JSON.stringify(provider.requests.at(-1)?.body)).toContain('\\"status\\":\\"open\\"');
  });

  it("a reader's 👎 dismisses nothing; a writer's does, through a push and a force-push, until the line changes", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: REPO, number: 2, headRef: "dismissed" });
    await reviewed(2, () => deliver("pull_request", pullRequestEvent("opened", target(), pr)));
    const root = commentsOf(2)[0]!;
    const thumbsDown = (login: string) =>
      github.personReactions.push({
        commentId: root.id,
        login,
        content: "-1",
        createdAt: new Date().toISOString(),
      });

    thumbsDown("reader");
    const afterReader = await push(2, "dismissed", commit("src/b.ts", "export const b = 1;\n"));
    expect(afterReader.output?.title).toBe("Loupe: no new findings (1 open, 0 dismissed)");

    thumbsDown("octocat");
    const afterWriter = await push(2, "dismissed", commit("src/c.ts", "export const c = 1;\n"));
    expect(afterWriter.output?.title).toBe("Loupe: no new findings (0 open, 1 dismissed)");
    expect(afterWriter.output?.summary).toContain("(1 dismissed earlier, not raised again)");
    const forced = await push(2, "dismissed", (repo) => {
      repo.git("reset", "--soft", "main");
      repo.commit("squashed");
    });
    expect(forced.output?.title).toBe("Loupe: no new findings (0 open, 1 dismissed)");
    expect(commentsOf(2)).toHaveLength(1);

    const changed = await push(2, "dismissed", commit("src/a.ts", "export const a = 3 as const;\n"));
    expect(changed.output?.summary).toContain("Finding ledger: 1 new this review");
    expect(commentsOf(2)).toHaveLength(2);
    expect(commentsOf(2)[1]!.body).toContain("Raised again: this finding was dismissed earlier");
    expect(loupe.output()).not.toContain(API_KEY);
  });

  it("a writer resolving the thread dismisses it, through a rebase; unresolving it undoes that", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: REPO, number: 3, headRef: "resolved" });
    await reviewed(3, () => deliver("pull_request", pullRequestEvent("opened", target(), pr)));
    const root = commentsOf(3)[0]!;

    github.setThreadResolved(root.id, "octocat");
    const resolved = await push(3, "resolved", commit("src/b.ts", "export const b = 1;\n"));
    expect(resolved.output?.title).toBe("Loupe: no new findings (0 open, 1 dismissed)");

    // main moves on, and the branch is rebased onto it.
    fixture.write("README.md", "Moved on.\n");
    fixture.commit("main moves on");
    github.pushBranch("octo", REPO, fixture, "main");
    const rebased = await push(3, "resolved", (repo) => repo.git("rebase", "--quiet", "main"));
    expect(rebased.output?.summary).toContain("full review: the base moved since the last review");
    expect(rebased.output?.title).toBe("Loupe: no new findings (0 open, 1 dismissed)");

    github.setThreadResolved(root.id, null);
    const undone = await push(3, "resolved", commit("src/c.ts", "export const c = 1;\n"));
    expect(undone.output?.title).toBe("Loupe: no new findings (1 open, 0 dismissed)");
    expect(commentsOf(3)).toHaveLength(1);
  });

  it("a reader's reply dismisses nothing; a writer's the reply loop judges a dismissal is recorded and holds after a push", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: REPO, number: 4, headRef: "replied" });
    await reviewed(4, () => deliver("pull_request", pullRequestEvent("opened", target(), pr)));
    const root = commentsOf(4)[0]!;
    const body = "@loupe this is intended: the new value is what we want.";

    // Someone who can only read says the same: no answer, and nothing dismissed.
    const readerReply = github.addPersonReply({
      owner: "octo",
      repo: REPO,
      pullNumber: 4,
      rootId: root.id,
      login: "reader",
      body,
    });
    await deliver(
      "pull_request_review_comment",
      reviewCommentReplyEvent(target(), pr, { id: readerReply, inReplyTo: root.id, body, login: "reader" }),
    );
    await loupe.until(
      () => (loupe.output().includes(`"comment":${readerReply}`) ? true : undefined),
      "the reader's comment's log line",
    );
    const afterReader = await push(4, "replied", commit("src/c.ts", "export const c = 1;\n"));
    expect(afterReader.output?.title).toBe("Loupe: no new findings (1 open, 0 dismissed)");
    expect(github.threadReplies.filter((r) => r.inReplyTo === root.id && r.user.type === "Bot")).toEqual([]);

    const replyId = github.addPersonReply({
      owner: "octo",
      repo: REPO,
      pullNumber: 4,
      rootId: root.id,
      login: "octocat",
      body,
    });
    await deliver(
      "pull_request_review_comment",
      reviewCommentReplyEvent(target(), pr, { id: replyId, inReplyTo: root.id, body, login: "octocat" }),
    );
    const answer = await loupe.until(
      () => github.threadReplies.find((r) => r.inReplyTo === root.id && r.user.type === "Bot"),
      "Loupe's answer in the thread",
    );
    expect(answer.body).toContain("Finding status: dismissed");
    expect(answer.body).toContain("<!-- loupe:status=dismissed by=octocat -->");
    await loupe.until(() => (github.resolvedThreads.has(root.id) ? true : undefined), "the thread resolved");

    const pushed = await push(4, "replied", commit("src/b.ts", "export const b = 1;\n"));
    expect(pushed.output?.title).toBe("Loupe: no new findings (0 open, 1 dismissed)");
    expect(commentsOf(4)).toHaveLength(1);
  });
});
