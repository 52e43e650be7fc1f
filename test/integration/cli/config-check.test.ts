// `loupe config check [FILE]`, in process: the App's parser and schema on a file, no provider and
// no repository; every error listed, one per line, exit 2; the default path absent is the defaults.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { main } from "../../../src/cli.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-config-check-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function loupe(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

function file(name: string, text: string): string {
  const full = path.join(dir, name);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  return full;
}

describe("loupe config check", () => {
  it("names the command once in a usage error", async () => {
    const run = await loupe("config", "frobnicate");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^loupe config: unknown action "frobnicate" \(/);
    expect(run.stderr).not.toContain("loupe: loupe");
    const review = await loupe("review", "--repo", dir);
    expect(review.stderr).toMatch(/^loupe review needs --/);
  });

  it("exits 0 on a valid file", async () => {
    const good = file("good.yml", 'min_severity: low\npaths:\n  exclude: ["vendor/**"]\n');
    expect(await loupe("config", "check", good)).toEqual({ code: 0, stdout: `${good}: valid\n`, stderr: "" });
  });

  it("exits 2 with every error, one per line", async () => {
    const bad = file("bad.yml", "min_severity: huge\nreviewers: [a]\nmax_findings: 0\n");
    const run = await loupe("config", "check", bad);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe(`loupe: ${bad} is invalid (3 errors):`);
    expect(lines.slice(1).sort()).toEqual([
      expect.stringMatching(/^ {2}max_findings: .* \(found 0\)$/),
      // The value read is echoed, so the person sees what the file said.
      '  min_severity: must be one of critical, high, medium, low, info (found "huge")',
      "  reviewers: is not a known key",
    ]);
    const yaml = await loupe("config", "check", file("yaml.yml", "a: *x\n"));
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toContain("  (yaml): ");
  });

  it("reads .github/loupe.yml in the current directory by default; none there means the defaults", async () => {
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      expect(await loupe("config", "check")).toMatchObject({
        code: 0,
        stdout: expect.stringContaining("defaults"),
      });
      file(".github/loupe.yml", "enabled: maybe\n");
      const run = await loupe("config", "check");
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("loupe: .github/loupe.yml is invalid (1 error):\n  enabled: ");
    } finally {
      process.chdir(cwd);
    }
  });

  it.each([
    [["config"], "no action given"],
    [["config", "lint"], 'unknown action "lint"'],
    [["config", "check", "a.yml", "b.yml"], "takes one FILE"],
    [["config", "check", "/nonexistent/loupe.yml"], "/nonexistent/loupe.yml: no such file"],
  ])("exits 2 with one line for %j", async (argv, message) => {
    const run = await loupe(...argv);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(message);
  });
});
