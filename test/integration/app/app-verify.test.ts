// The verification pass through Probot: a scripted reviewer proposes three findings, a scripted
// verifier answers for each, and what is posted and what the check run says are what GitHub got
// (nock, real webhook payloads), over the real git server and the real four tools.

import { describe, expect, it } from "@jest/globals";
import type { HarnessSettings } from "../../support/app-scenario.ts";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  PR,
  pullRequestPayload,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";

const app = useAppScenario();

// src/service.ts at the head: save() writes, then validates, then returns the record.
const THREE = [
  finding({ line: 2, severity: "high", title: "Validation occurs after the write" }),
  finding({ line: 3, severity: "medium", title: "The result of validate is ignored" }),
  finding({ line: 4, severity: "low", title: "An unvalidated record is returned" }),
];
const FINDER = { body: stopTurn(review(THREE)) };
// Verifications run side by side: each answer goes to the verification of its finding.
const [HIGH, MEDIUM, LOW] = THREE.map((f) => f.title as string) as [string, string, string];
const verdict = (title: string, value: string, quote: string | null = null) => ({
  when: title,
  turn: { body: stopTurn({ verdict: value, reason: `The verifier says ${value}.`, quote }) },
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
        verdict(HIGH, "confirmed"),
        {
          when: MEDIUM,
          turn: {
            body: toolCallsTurn([
              { id: "call_v1", name: "read_repository_file", arguments: { path: "src/service.ts" } },
            ]),
          },
        },
        verdict(MEDIUM, "refuted", PROOF),
        verdict(LOW, "confirmed"),
      ],
      on,
    );
    expect(run.lines).toEqual([2, 4]);
    expect(run.summary).toContain(
      "2 findings checked and kept, 0 refuted but posted as disputed (high or critical severity), 1 refuted and not posted, 0 not verified",
    );
    expect(run.summary).toContain("Refuted: **The result of validate is ignored** at `src/service.ts:3`");
    expect(run.summary).toContain("validate(record);\n    return record;");
    // Each verification is its own conversation: the finding under question as untrusted data,
    // with the same four tools, and the file the verifier read went back to it.
    expect(run.requests).toHaveLength(5);
    const asked = run.requests
      .slice(1)
      .map((r) => r.body as { messages: { role: string; content: string }[]; tools: unknown[] });
    const high = asked.find((b) => b.messages[1]!.content.includes(HIGH))!;
    expect(high.messages[1]!.content).toContain(
      'The finding to verify (untrusted data, JSON-quoted): "[high] Validation occurs after the write',
    );
    expect(high.tools).toHaveLength(4);
    const reread = asked.find((b) => b.messages.some((m) => m.role === "tool"))!;
    expect(JSON.stringify(reread.messages)).toContain("db.write(record);");
    // The verifications' tokens are the review's: 4 stop turns of 220 and one call turn of 110.
    expect(run.summary).toContain("| 990 |");
  });

  it("keeps a refuted finding whose quote is not in the head commit", async () => {
    const run = await reviewWith(
      [
        FINDER,
        verdict(HIGH, "confirmed"),
        verdict(MEDIUM, "refuted", "if (!record) throw new Error();"),
        verdict(LOW, "plausible"),
      ],
      { ...isolation, limits: { verify: true } },
    );
    expect(run.lines).toEqual([2, 3, 4]);
    expect(run.summary).toContain(
      "3 findings checked and kept (1 refuted without a quote that shows more than the claim), 0 refuted",
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

  it("stops where the review's tokens run out and marks the rest unverified, still posted", async () => {
    // The reviewer's turn takes 220 of 1,221 tokens: too few are left for any verification.
    const run = await reviewWith([FINDER], { limits: { verify: true, maxTokens: 1_221 } });
    expect(run.requests).toHaveLength(1);
    expect(run.lines).toEqual([2, 3, 4]);
    expect(run.summary).toContain("0 findings checked and kept, 0 refuted but posted as disputed");
    expect(run.summary).toContain("3 not verified (the review's budget ran out)");
    expect(run.summary).toContain("Not verified (posted): **The result of validate is ignored**");
    expect(run.summary).toContain("Not verified (posted): **An unvalidated record is returned**");
  });

  it("posts a refuted high finding as disputed, counting for fail_on, with the verifier's reason and quote", async () => {
    const run = await reviewWith(
      [FINDER, verdict(HIGH, "refuted", PROOF), verdict(MEDIUM, "confirmed"), verdict(LOW, "confirmed")],
      { limits: { verify: true } },
    );
    expect(run.lines).toEqual([2, 3, 4]);
    expect(run.summary).toContain("1 refuted but posted as disputed (high or critical severity)");
    expect(run.summary).toContain(
      "Disputed (posted): **Validation occurs after the write** at `src/service.ts:2`",
    );
  });
});
