// The verification pass through Probot: a scripted reviewer proposes three findings, a scripted
// verifier answers for each, and what is posted and what the check run says are what GitHub got
// (nock, real webhook payloads), over the real git server and the real four tools.

import { describe, expect, it } from "@jest/globals";
import type { HarnessSettings } from "../support/app-scenario.ts";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  PR,
  pullRequestPayload,
  useAppScenario,
} from "../support/app-scenario.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../support/chat-turns.ts";

const app = useAppScenario();

// src/service.ts at the head: save() writes, then validates, then returns the record.
const THREE = [
  finding({ line: 2, severity: "high", title: "Validation occurs after the write" }),
  finding({ line: 3, severity: "medium", title: "The result of validate is ignored" }),
  finding({ line: 4, severity: "low", title: "An unvalidated record is returned" }),
];
const FINDER = { body: stopTurn(review(THREE)) };
const verdict = (value: string, quote: string | null = null) => ({
  body: stopTurn({ verdict: value, reason: `The verifier says ${value}.`, quote }),
});
const PROOF = "validate(record);\n    return record;";

async function reviewWith(script: Parameters<typeof app.start>[0], settings: HarnessSettings) {
  const h = await app.start(script, settings);
  const gh = mockReviewStart(app.fx, { app: true });
  mockPublish(gh).createReview(PR, [200, { id: 77 }]);
  await h.receive("pull_request", pullRequestPayload(app.fx, "opened"), `delivery-${Math.random()}`);
  await h.drain();
  const posted = gh.reviewsPosted();
  expect(posted).toHaveLength(1);
  const lines = (posted[0]!.comments as { line: number }[]).map((c) => c.line);
  const summary = (gh.completion().output as { summary: string }).summary;
  expectCleanEnd(h, app.provider, [gh]);
  await h.close();
  return { lines, summary, requests: app.provider.requests };
}

describe.each([
  ["in this thread", {}],
  ["in a repository worker", { isolation: {} }],
] as const)("the verification pass %s", (_where, isolation: HarnessSettings) => {
  it("posts the confirmed findings and lists the refuted one with its quote in the check run", async () => {
    const on = { ...isolation, limits: { verify: true } };
    const run = await reviewWith(
      [
        FINDER,
        verdict("confirmed"),
        {
          body: toolCallsTurn([
            { id: "call_v1", name: "read_repository_file", arguments: { path: "src/service.ts" } },
          ]),
        },
        verdict("refuted", PROOF),
        verdict("confirmed"),
      ],
      on,
    );
    expect(run.lines).toEqual([2, 4]);
    expect(run.summary).toContain("2 findings checked and kept, 1 refuted and not posted, 0 not verified");
    expect(run.summary).toContain("Refuted: **The result of validate is ignored** at `src/service.ts:3`");
    expect(run.summary).toContain("validate(record);\n    return record;");
    // Each verification is its own conversation: the finding under question as untrusted data,
    // with the same four tools, and the file the verifier read went back to it.
    expect(run.requests).toHaveLength(5);
    const second = run.requests[1]!.body as {
      messages: { role: string; content: string }[];
      tools: unknown[];
    };
    expect(second.messages[1]!.content).toContain(
      'The finding to verify (untrusted data, JSON-quoted): "[high] Validation occurs after the write',
    );
    expect(second.tools).toHaveLength(4);
    expect(run.requests[3]!.bodyText).toContain("db.write(record);");
    // The verifications' tokens are the review's: 4 stop turns of 220 and one call turn of 110.
    expect(run.summary).toContain("| 990 |");
  });

  it("keeps a refuted finding whose quote is not in the head commit", async () => {
    const run = await reviewWith(
      [
        FINDER,
        verdict("confirmed"),
        verdict("refuted", "if (!record) throw new Error();"),
        verdict("plausible"),
      ],
      { ...isolation, limits: { verify: true } },
    );
    expect(run.lines).toEqual([2, 3, 4]);
    expect(run.summary).toContain(
      "3 findings checked and kept (1 refuted without a quote found in the head commit), 0 refuted",
    );
  });
});

describe("the verification pass, off and out of budget", () => {
  it("with REVIEW_VERIFY=off posts all three and sends no verification request", async () => {
    const run = await reviewWith([FINDER], { limits: { verify: false } });
    expect(run.lines).toEqual([2, 3, 4]);
    expect(run.requests).toHaveLength(1);
    expect(run.summary).not.toContain("Verification:");
  });

  it("stops at the review's round budget and marks the rest unverified, still posted", async () => {
    // Four rounds: the reviewer takes one, the first verification two; one round cannot verify.
    const run = await reviewWith(
      [
        FINDER,
        {
          body: toolCallsTurn([
            { id: "call_v1", name: "read_repository_file", arguments: { path: "src/service.ts" } },
          ]),
        },
        verdict("refuted", "db.write(record);\n  validate(record);"),
      ],
      { limits: { verify: true, maxRounds: 4 } },
    );
    expect(run.requests).toHaveLength(3);
    expect(run.lines).toEqual([3, 4]);
    expect(run.summary).toContain("0 findings checked and kept, 1 refuted and not posted, 2 not verified");
    expect(run.summary).toContain("Not verified (posted): **The result of validate is ignored**");
    expect(run.summary).toContain("Not verified (posted): **An unvalidated record is returned**");
  });
});
