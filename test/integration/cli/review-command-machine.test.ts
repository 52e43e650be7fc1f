// `loupe review` for machines, through the real command on a git repository and the scripted
// provider: `--format sarif` validates against the official SARIF 2.1.0 schema and GitHub's
// limits, keeps a finding's partial fingerprint across a push that moves and rewords it, and tells
// a stopped review from a clean one; `--format json` carries the agents' document
// (docs/review-result.schema.json) beside the fields it always had.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { finding, review, stopTurn } from "../../support/chat-turns.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { runLoupe } from "../../support/loupe-cli.ts";
import { reviewDocumentProblems, sarifProblems } from "../../support/machine-checks.ts";
import { type ScriptedTurn, startScriptedProvider } from "../../support/scripted-provider.ts";

let repo: FixtureRepo;
let base: string;
let first: string;
let second: string;

beforeAll(() => {
  repo = createRepo();
  repo.write("src/service.ts", "export function save(w) {\n  return w;\n}\n");
  base = repo.commit("base");
  repo.write("src/service.ts", "export function save(w) {\n  db.write(w);\n  validate(w);\n}\n");
  first = repo.commit("validate after write");
  // The next push adds lines above: the same code is now on line 4.
  repo.write(
    "src/service.ts",
    "// Saving.\n\nexport function save(w) {\n  db.write(w);\n  validate(w);\n}\n",
  );
  second = repo.commit("a comment above");
});
afterAll(() => repo.dispose());

async function loupe(args: string[], script: ScriptedTurn[], env: Record<string, string> = {}) {
  const server = await startScriptedProvider(script);
  try {
    return await runLoupe(["review", "--repo", repo.dir, ...args], {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: "sk-x",
      REVIEW_MODEL: "deepseek-v4-flash",
      REVIEW_VERIFY: "off",
      ...env,
    });
  } finally {
    await server.stop();
  }
}

const fingerprints = (sarif: string) =>
  (JSON.parse(sarif) as { runs: { results: { partialFingerprints: object }[] }[] }).runs[0]!.results.map(
    (r) => r.partialFingerprints,
  );

describe("loupe review for machines", () => {
  it("writes SARIF that validates, with the same partial fingerprint for a finding moved and reworded", async () => {
    const one = await loupe(
      ["--base", base, "--head", first, "--format", "sarif"],
      [
        {
          body: stopTurn(review([finding({ line: 2, title: "Validation occurs after the write @octocat" })])),
        },
      ],
    );
    expect(one.code).toBe(0);
    expect(sarifProblems(one.stdout)).toEqual([]);
    const reworded = finding({
      line: 4,
      title: "The object is saved before it is validated",
      explanation: "db.write runs first, so an invalid object reaches the database.",
    });
    const two = await loupe(
      ["--base", base, "--head", second, "--format", "sarif"],
      [{ body: stopTurn(review([reworded])) }],
    );
    expect(two.code).toBe(0);
    expect(sarifProblems(two.stdout)).toEqual([]);
    expect(fingerprints(two.stdout)).toEqual(fingerprints(one.stdout));
    expect(fingerprints(one.stdout)).toHaveLength(1);
    expect(one.stdout).not.toContain("@octocat");
    const run = JSON.parse(two.stdout).runs[0];
    expect(run.results[0].locations[0].physicalLocation.region).toEqual({ startLine: 4, endLine: 4 });
    expect(run.invocations[0]).toMatchObject({
      executionSuccessful: true,
      properties: { "loupe/completed": true },
    });
    expect(run.tool.driver.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("writes SARIF for a review that did not finish, saying so", async () => {
    const run = await loupe(["--base", base, "--head", first, "--format", "sarif"], [{ fault: "hang" }], {
      REVIEW_TIMEOUT_MS: "1500",
    });
    expect(run.code).toBe(1);
    expect(sarifProblems(run.stdout)).toEqual([]);
    const invocation = JSON.parse(run.stdout).runs[0].invocations[0];
    expect(invocation).toMatchObject({
      executionSuccessful: false,
      properties: { "loupe/completed": false, "loupe/terminationReason": "review_timeout" },
    });
  });

  it("prints JSON that conforms to the agents' schema and keeps its earlier fields", async () => {
    const run = await loupe(
      ["--base", base, "--head", first],
      [{ body: stopTurn(review([finding({ line: 2 })])) }],
    );
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(reviewDocumentProblems(json)).toEqual([]);
    expect(json).toMatchObject({
      schema_version: 1,
      termination_reason: "final_review",
      outcome: { kind: "reviewed", completed: true, termination_reason: "final_review" },
      findings: [{ status: "new", severity: "high", location: { path: "src/service.ts", start_line: 2 } }],
    });
    expect(json.findings[0].instruction).toContain("src/service.ts:2");
    expect(json.plan.postable).toBe(true);
  });

  it("prints JSON that conforms for a change it would not review, and for one it did not finish", async () => {
    const empty = await loupe(["--base", base, "--head", base], []);
    expect(reviewDocumentProblems(JSON.parse(empty.stdout))).toEqual([]);
    expect(JSON.parse(empty.stdout).outcome).toMatchObject({ kind: "skipped", completed: false });
    const stopped = await loupe(["--base", base, "--head", first], [{ fault: "hang" }], {
      REVIEW_TIMEOUT_MS: "1500",
    });
    expect(reviewDocumentProblems(JSON.parse(stopped.stdout))).toEqual([]);
    expect(JSON.parse(stopped.stdout).outcome).toMatchObject({
      completed: false,
      termination_reason: "review_timeout",
    });
  });

  it("refuses an unknown format with a clear usage error", async () => {
    const run = await loupe(["--base", base, "--head", first, "--format", "xml"], []);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--format must be json, markdown or sarif");
  });
});
