// Finder passes (REVIEW_FINDER_PASSES) through `loupe review` against the
// scripted provider: each finder looks from its own angle (the prompt says which), under its share
// of the review's rounds, and the same defect two finders found — worded differently — is posted
// once; with one finder pass the prompt names no angle.

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { runLoupe } from "../../support/loupe-cli.ts";
import { type ScriptedTurn, startScriptedProvider } from "../../support/scripted-provider.ts";

let repo: FixtureRepo;

beforeAll(() => {
  repo = createRepo();
  repo.write(
    "src/service.ts",
    "export function save(db, record) {\n  validate(record);\n  db.write(record);\n}\n",
  );
  repo.commit("base");
  repo.branch("change", "main");
  repo.write(
    "src/service.ts",
    "export function save(db, record) {\n  db.write(record);\n  validate(record);\n}\n",
  );
  repo.commit("write before validating");
  repo.checkout("main");
});
afterAll(() => repo.dispose());

async function loupe(script: ScriptedTurn[], env: Record<string, string>) {
  const provider = await startScriptedProvider(script);
  try {
    const run = await runLoupe(["review", "--repo", repo.dir, "--base", "main", "--head", "change"], {
      OPENAI_BASE_URL: provider.baseURL,
      OPENAI_API_KEY: "sk-cli-finders-0123456789abcdefghij",
      REVIEW_MODEL: "deepseek-v4-flash",
      REVIEW_VERIFY: "off",
      ...env,
    });
    return { ...run, bodies: provider.requests.map((r) => r.bodyText) };
  } finally {
    await provider.stop();
  }
}

const writeFirst = finding({
  title: "Validation occurs after the write",
  explanation: "The record is written to the database before validate runs, so invalid records are saved.",
  path: "src/service.ts",
  line: 2,
  evidence: "db.write(record);",
});
const reworded = finding({
  title: "Unvalidated record saved to the database",
  explanation: "validate runs after db.write, so the database saves records that are invalid.",
  path: "src/service.ts",
  line: 2,
  evidence: "db.write(record);",
});
const other = finding({
  title: "Validation error leaves a partial write",
  explanation: "When validate throws, the write already happened and nothing rolls it back.",
  path: "src/service.ts",
  line: 3,
  evidence: "validate(record);",
});

it("runs one finder a angle and posts the defect both found once", async () => {
  const run = await loupe(
    [{ body: stopTurn(review([writeFirst])) }, { body: stopTurn(review([reworded, other])) }],
    {
      REVIEW_FINDER_PASSES: "2",
      REVIEW_MAX_ROUNDS: "8",
    },
  );
  expect(run.code).toBe(0);
  expect(run.bodies).toHaveLength(2);
  expect(run.bodies[0]).toContain("This finder pass looks at the change from one angle: correctness");
  expect(run.bodies[1]).toContain("one angle: security and data handling");
  const out = JSON.parse(run.stdout);
  expect(out.termination_reason).toBe("final_review");
  expect(out.review.findings.map((f: { title: string }) => f.title)).toEqual([writeFirst.title, other.title]);
  // Each finder is a loop of its own: one round each here, counted together.
  expect(out.rounds).toBe(2);
  expect(out.review.summary).toContain("Finder pass from the angle of correctness:");
});

it("names no angle with one finder pass (the default)", async () => {
  const run = await loupe([{ body: stopTurn(review([writeFirst])) }], {});
  expect(run.code).toBe(0);
  expect(run.bodies).toHaveLength(1);
  expect(run.bodies[0]).not.toContain("finder pass");
});

it("runs each finder as a whole loop under the per-loop rounds: with four, each reads and answers on its own", async () => {
  const diff = (id: string) => ({ body: toolCallsTurn([{ id, name: "inspect_git_diff", arguments: {} }]) });
  const run = await loupe(
    [diff("a1"), { body: stopTurn(review([writeFirst])) }, diff("b1"), { body: stopTurn(review([other])) }],
    { REVIEW_FINDER_PASSES: "2", REVIEW_MAX_ROUNDS: "4" },
  );
  expect(run.code).toBe(0);
  expect(run.bodies).toHaveLength(4);
  // Rounds are not shared: no finder is cut to a forced final answer after its first read.
  for (const body of run.bodies) expect(body).not.toContain("The review budget is used up.");
  expect(JSON.parse(run.stdout).review.findings).toHaveLength(2);
});
