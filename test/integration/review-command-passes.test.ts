// `loupe review` on a change larger than one loop, as a child process against the scripted
// provider: the same passes as the App (the pipeline's passes step), each under its share of the
// budget — two rounds a pass out of REVIEW_MAX_ROUNDS=4, so each pass's second round is its
// final-answer round — and the pass the budget has no room for reported as not reviewed.

import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { finding, review, stopTurn, toolCallsTurn } from "../support/chat-turns.ts";
import { createRepo, type FixtureRepo } from "../support/git-fixture.ts";
import { type ScriptedTurn, startScriptedProvider } from "../support/scripted-provider.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const NODE = path.join(ROOT, "node_modules/.bin/node");
const DIRECTORIES = 14;
const FILES_PER_DIRECTORY = 50;

let repo: FixtureRepo;
const pathOf = (d: number, f: number) => `mod${String(d).padStart(2, "0")}/f${String(f).padStart(2, "0")}.ts`;

beforeAll(() => {
  repo = createRepo();
  for (let d = 0; d < DIRECTORIES; d++)
    for (let f = 0; f < FILES_PER_DIRECTORY; f++) repo.write(pathOf(d, f), `export const x = ${f};\n`);
  repo.commit("base");
  repo.branch("wide", "main");
  for (let d = 0; d < DIRECTORIES; d++)
    for (let f = 0; f < FILES_PER_DIRECTORY; f++) repo.write(pathOf(d, f), `export const x = ${f + 1};\n`);
  repo.commit("change 700 files");
  repo.checkout("main");
});
afterAll(() => repo.dispose());

function pass(n: number): ScriptedTurn[] {
  const diff = toolCallsTurn([{ id: `d${n}`, name: "inspect_git_diff", arguments: {} }]);
  const answer = stopTurn(
    review([
      finding({ title: `Pass ${n} problem`, path: pathOf(n, 0), line: 1, evidence: "export const x =" }),
    ]),
  );
  return [{ body: diff }, { body: answer }];
}

it("reviews 700 files in the passes the budget affords, and lists the rest as not reviewed", async () => {
  const provider = await startScriptedProvider([...pass(1), ...pass(2)]);
  try {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        NODE,
        ["src/cli.ts", "review", "--repo", repo.dir, "--base", "main", "--head", "wide"],
        {
          cwd: ROOT,
          maxBuffer: 64 * 1024 * 1024,
          env: {
            PATH: process.env.PATH ?? "",
            OPENAI_BASE_URL: provider.baseURL,
            OPENAI_API_KEY: "sk-cli-passes-0123456789abcdefghij",
            REVIEW_MODEL: "deepseek-v4-flash",
            REVIEW_MAX_ROUNDS: "4",
            REVIEW_VERIFY: "off",
          },
        },
        (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
      );
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const bodies = provider.requests.map((r) => r.bodyText);
    expect(bodies).toHaveLength(4);
    expect(bodies[0]).toMatch(/This is pass 1 of 3: it covers \d+ of 700 changed files/);
    expect(bodies[2]).toMatch(/This is pass 2 of 3: it covers \d+ of 700 changed files/);
    // Two rounds a pass: the second round of each pass is its final-answer round.
    for (const i of [1, 3]) expect(bodies[i]).toContain("The review budget is used up.");
    expect(bodies[0]).not.toContain("The review budget is used up.");

    const out = JSON.parse(run.stdout);
    expect(out.termination_reason).toBe("final_review");
    expect(out.review.findings.map((f: { title: string }) => f.title)).toEqual([
      "Pass 1 problem",
      "Pass 2 problem",
    ]);
    const passes = out.coverage.passes as { files: number; ended: string | null }[];
    expect(passes.map((p) => p.ended)).toEqual(["final_review", "final_review", null]);
    expect(out.files_reviewed).toBe(passes[0]!.files + passes[1]!.files);
    const budget = (out.coverage.not_reviewed as { reason: string }[]).filter((f) => f.reason === "budget");
    expect(budget).toHaveLength(passes[2]!.files);
    expect(out.files_reviewed + budget.length).toBe(700);
  } finally {
    await provider.stop();
  }
}, 120_000);
