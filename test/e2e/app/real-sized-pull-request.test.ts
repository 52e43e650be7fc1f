// A pull request the size people send, through Loupe as a real server process with default
// settings (verification on, no REVIEW_* overrides): 18 changed files, two of them large data files
// — 21,000 changed lines over 1 MiB, and 10,000 lines under it — beside a lockfile, a generated
// file the base's .gitattributes marks, and sixteen source files. One loop holds it (the model is
// shown the large file's description and the diff tool's cut of the other), so it is never split:
// the model reads the diff, answers the way models do (JSON in a Markdown fence, prose evidence with
// backticked code), the verifier confirms, and the review is posted with the coverage naming what
// was left out and what was only described.

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { createRepo } from "../../support/git-fixture.ts";
import { reviewThroughServer } from "../../support/server-review.ts";
import { type ServerWorld, startServerWorld } from "../../support/server-world.ts";

const TITLE = "The retry loop never gives up on a 4xx";
const FINDING = {
  severity: "high",
  title: TITLE,
  explanation: "A 404 from the upstream is retried forever, so a deleted record pins a worker.",
  path: "src/client/retry.ts",
  line: 4,
  evidence:
    "Line 4 reads `while (response.status >= 400) {`, which also matches 404: nothing ever breaks out of the loop for a client error.",
  recommendation: "Retry only on 5xx and 429, and cap the attempts.",
};

/** What a model writes: the final review inside a json fence, after the read. */
const fencedReview = () =>
  stopTurn(
    `\`\`\`json\n${JSON.stringify({ summary: "One real bug in the retry loop.", findings: [FINDING], notes: [] }, null, 2)}\n\`\`\``,
  );

function csv(rows: number, seed: string): string {
  const lines = ["id,name,score,updated_at"];
  for (let i = 0; i < rows; i++)
    lines.push(`${i},${seed}-${i.toString(36)},${(i * 7919) % 1000},2026-11-${(i % 28) + 1}`);
  return `${lines.join("\n")}\n`;
}

let world: ServerWorld;

beforeAll(async () => {
  world = await startServerWorld({
    name: "real-sized",
    repo: "shop",
    fixture: () => {
      const repo = createRepo();
      repo.write(".gitattributes", "src/generated/** linguist-generated=true\n*.csv text\n");
      repo.write("package-lock.json", '{"lockfileVersion": 3, "packages": {}}\n');
      repo.write("src/generated/schema.ts", "export const schema = {};\n");
      for (let i = 0; i < 15; i++) repo.write(`src/pages/page${i}.ts`, `export const page${i} = ${i};\n`);
      repo.write(
        "src/client/retry.ts",
        "export async function get(url: string) {\n  return fetch(url);\n}\n",
      );
      repo.commit("base");
      repo.branch("data-refresh", "main");
      repo.write("package-lock.json", '{"lockfileVersion": 3, "packages": {"": {"name": "shop"}}}\n');
      repo.write("src/generated/schema.ts", "export const schema = { version: 2 };\n");
      for (let i = 0; i < 15; i++) repo.write(`src/pages/page${i}.ts`, `export const page${i} = ${i + 1};\n`);
      repo.write(
        "src/client/retry.ts",
        [
          "export async function get(url: string) {",
          "  let response = await fetch(url);",
          "  // retry until the upstream answers",
          "  while (response.status >= 400) {",
          "    response = await fetch(url);",
          "  }",
          "  return response;",
          "}",
          "",
        ].join("\n"),
      );
      // Two data files: one over the tools' 1 MiB read limit, one under it.
      repo.write("data/catalog.csv", csv(21_000, "catalog-row-with-a-much-longer-descriptive-name"));
      repo.write("data/prices.csv", csv(10_000, "p"));
      repo.commit("refresh the data and retry the client");
      repo.checkout("main");
      return repo;
    },
    script: [
      { body: toolCallsTurn([{ id: "call_diff", name: "inspect_git_diff", arguments: {} }]) },
      { body: fencedReview() },
      {
        when: TITLE,
        turn: {
          body: stopTurn({
            verdict: "confirmed",
            reason: "The loop condition includes every 4xx status and has no attempt limit.",
            quote: null,
          }),
        },
      },
    ],
    unset: ["REVIEW_VERIFY"],
  });
}, 120_000);

afterAll(async () => {
  await world?.stop();
});

it("reviews 18 files with two large data files in one loop, posts the finding, and names what it left out", async () => {
  const { github, loupe, secret, provider } = world;
  const run = await reviewThroughServer({
    github,
    loupe,
    secret,
    repo: "shop",
    number: 18,
    headRef: "data-refresh",
  });
  const done = run.history.at(-1)!;
  expect(done.conclusion).toBe("success");
  const summary = done.output?.summary ?? "";
  expect(summary).toContain("**Stopped:** `final_review`");
  // One loop: a read and an answer, then the verification; no pass was made.
  expect(provider.requests).toHaveLength(3);
  expect(provider.requests[0]!.bodyText).not.toContain("This is pass");
  const reviews = github.reviews.filter((r) => r.repo === "shop");
  expect(reviews).toHaveLength(1);
  expect(reviews[0]!.comments.map((c) => [c.path, c.line])).toEqual([["src/client/retry.ts", 4]]);
  expect(reviews[0]!.comments[0]!.body).toContain(TITLE);
  // The coverage names the generated file, the lockfile and the data file shown only as described.
  expect(summary).toContain(
    "| generated (linguist-generated in .gitattributes) | 1 | `src/generated/schema.ts` |",
  );
  expect(summary).toContain("| excluded by the paths rules | 1 | `package-lock.json` |");
  expect(summary).toMatch(/shown only as a description[^|]*\| 1 \| `data\/catalog\.csv` \|/);
  expect(summary).toContain("Evidence: 1 of 1 checked findings quote the head code.");
});
