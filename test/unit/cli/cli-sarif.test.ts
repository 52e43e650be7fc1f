// `loupe sarif validate FILE`, in process: the SARIF Loupe writes is valid (exit 0, one line on
// stdout); a file the schema or GitHub's upload rules refuse gives exit 1 and one line per
// problem, each naming the file; bad usage and a file that cannot be read exit 2 with one line.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { main } from "../../../src/cli.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { sarifLog } from "../../../src/review/sarif.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-sarif-validate-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const full = path.join(dir, name);
  fs.writeFileSync(full, text);
  return full;
}

async function loupe(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

const done = { terminationReason: "final_review" as const, completed: true, skipped: null };
const written = sarifLog({ version: "9.9.9" }, done, [], GITHUB_WORDS);

describe("loupe sarif validate", () => {
  it("accepts the SARIF Loupe writes", async () => {
    const valid = file("loupe.sarif", written);
    expect(await loupe("sarif", "validate", valid)).toEqual({
      code: 0,
      stdout: `${valid}: valid SARIF 2.1.0, within GitHub's code scanning limits\n`,
      stderr: "",
    });
  });

  it("lists every problem of a file the schema and GitHub refuse, one line each", async () => {
    const log = JSON.parse(written) as { version: string; runs: { results: unknown[] }[] };
    log.version = "2.0.0";
    log.runs[0]!.results = [
      {
        ruleId: "loupe/none",
        message: { text: "x" },
        partialFingerprints: { "loupeFindingId/v1": "a" },
        locations: [
          { physicalLocation: { artifactLocation: { uri: "/etc/passwd" }, region: { startLine: 0 } } },
        ],
      },
    ];
    const bad = file("bad.sarif", JSON.stringify(log));
    const result = await loupe("sarif", "validate", bad);
    expect([result.code, result.stdout]).toEqual([1, ""]);
    expect(result.stderr.split("\n").filter((line) => line !== "")).toEqual([
      `${bad}: schema /version: must be equal to one of the allowed values`,
      `${bad}: schema /runs/0/results/0/locations/0/physicalLocation/region/startLine: must be >= 1`,
      `${bad}: version is not 2.1.0`,
      `${bad}: results[0].ruleId names no rule`,
      `${bad}: results[0] uri /etc/passwd`,
      `${bad}: results[0] startLine`,
    ]);
  });

  it("says a file is not JSON, in one line", async () => {
    const text = file("text.sarif", "not json");
    const result = await loupe("sarif", "validate", text);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not JSON: [^\n]+\n$`),
    );
  });

  it("exits 2 with one line for bad usage and a file it cannot read", async () => {
    const missing = path.join(dir, "missing.sarif");
    expect(await loupe("sarif", "validate", missing)).toEqual({
      code: 2,
      stdout: "",
      stderr: `loupe sarif validate: cannot read ${missing} (ENOENT)\n`,
    });
    expect(await loupe("sarif")).toEqual({
      code: 2,
      stdout: "",
      stderr: "loupe sarif: no action given (the action is: validate FILE)\n",
    });
    expect((await loupe("sarif", "validate")).code).toBe(2);
    expect((await loupe("sarif", "check", "x.sarif")).code).toBe(2);
  });
});
