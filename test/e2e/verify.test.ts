// The verification pass through Loupe as a real server process (its repository workers, the fake
// GitHub, the scripted model), with REVIEW_VERIFY left at its default: the reviewer proposes three
// findings, the verifier refutes one with the line of the head commit that proves it and confirms
// two; two are posted, the check run lists the refuted one with its quote, and /metrics counts
// the verifications' tokens as the review's.

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { finding, review, stopTurn } from "../support/chat-turns.ts";
import { reviewThroughServer } from "../support/server-review.ts";
import { type ServerWorld, startServerWorld } from "../support/server-world.ts";

const titles = ["The constant changed without a migration", "a is never read", "a should be 3"];
const verdict = (value: string, quote: string | null = null) => ({
  body: stopTurn({ verdict: value, reason: `The code shows it is ${value}.`, quote }),
});

let world: ServerWorld;

beforeAll(async () => {
  world = await startServerWorld({
    name: "verify",
    repo: "checked",
    script: [
      {
        body: stopTurn(
          review(
            titles.map((title) =>
              finding({ path: "src/a.ts", line: 1, title, evidence: "export const a =" }),
            ),
          ),
        ),
      },
      verdict("confirmed"),
      verdict("refuted", "export const a = 2;"),
      verdict("confirmed"),
    ],
    // The test world turns the pass off for the tests that script only a reviewer: unset, it is on.
    unset: ["REVIEW_VERIFY"],
  });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

it("posts the two confirmed findings and lists the refuted one with its quote in the check run", async () => {
  const { github, provider, loupe, secret: SECRET, apiKey: API_KEY } = world;
  const run = await reviewThroughServer({
    github,
    loupe,
    secret: SECRET,
    repo: "checked",
    number: 1,
    headRef: "change",
  });
  const done = run.history.at(-1)!;
  expect(done.conclusion).toBe("success");
  expect(provider.requests).toHaveLength(4);
  const reviews = github.reviews.filter((r) => r.repo === "checked");
  expect(reviews).toHaveLength(1);
  const bodies = reviews[0]!.comments.map((c) => c.body);
  expect(bodies).toHaveLength(2);
  expect(bodies.some((b) => b.includes(titles[0]!))).toBe(true);
  expect(bodies.some((b) => b.includes(titles[2]!))).toBe(true);
  expect(bodies.some((b) => b.includes(titles[1]!))).toBe(false);
  const summary = done.output?.summary ?? "";
  expect(summary).toContain("2 findings checked and kept, 1 refuted and not posted, 0 not verified");
  expect(summary).toContain(`Refuted: **${titles[1]}** at \`src/a.ts:1\``);
  expect(summary).toContain("```\nexport const a = 2;\n```");
  // One reviewer round and three verifications, each of 200 prompt and 20 completion tokens.
  const metrics = await (await fetch(`${loupe.url}/metrics`)).text();
  expect(metrics).toMatch(/^loupe_tokens_total\{kind="output"\} 80$/m);
  expect(loupe.output()).not.toContain(API_KEY);
});
