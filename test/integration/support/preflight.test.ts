// The test command's preflight as a fresh machine runs it: a PATH that holds only node (and git),
// so redis-server, Chromium and cmark-gfm are nowhere to be found. It must stop with one message
// that names each missing program and how to get it, and say nothing when all are there.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { onPath, requireProgram } from "../../support/programs.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const NODE = process.execPath;
const dirs: string[] = [];

/** A directory holding only links to the named programs, to stand in for PATH. */
function pathWith(programs: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-preflight-"));
  dirs.push(dir);
  for (const [name, target] of Object.entries(programs)) fs.symlinkSync(target, path.join(dir, name));
  return dir;
}

function preflight(env: NodeJS.ProcessEnv) {
  return spawnSync(NODE, [path.join(ROOT, "test/support/preflight.ts")], {
    encoding: "utf8",
    env: { LOUPE_PREFLIGHT_INSTALL: "0", ...env },
  });
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the test command's preflight", () => {
  it("stops with one message naming each missing program and how to get it", () => {
    const git = onPath("git");
    expect(git).not.toBeNull();
    const run = preflight({ PATH: pathWith({ node: NODE, git: git! }) });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("these are missing");
    for (const name of ["redis-server", "redis-cli", "chromium", "cmark-gfm", "openssl", "faketime"]) {
      expect(run.stderr).toContain(`  - ${name}: not found on PATH`);
    }
    expect(run.stderr).toContain("set CHROMIUM_PATH to its path");
    expect(run.stderr).not.toContain("git-http-backend"); // found through `git --exec-path`
    expect(run.stderr).toContain("apt-get install -y redis-server chromium cmark-gfm openssl faketime");
    expect(run.stderr).toContain(
      "brew install redis cmark-gfm openssl libfaketime && brew install --cask chromium",
    );
    expect(run.stderr).not.toMatch(/\n\s+at /); // a message, not a stack
  });

  it("names git's http-backend and the variable that points at it when git is not there", () => {
    const run = preflight({ PATH: pathWith({ node: NODE }) });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "  - git-http-backend: not found on PATH (or set GIT_HTTP_BACKEND to its path)",
    );
  });

  it("names an override that points at nothing", () => {
    const run = preflight({ PATH: process.env.PATH, CHROMIUM_PATH: "/nonexistent/chromium" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("  - chromium: CHROMIUM_PATH=/nonexistent/chromium is not an executable");
    expect(run.stderr).not.toContain("cmark-gfm:");
  });

  it("says nothing and passes when every program is there", () => {
    const run = preflight({ PATH: process.env.PATH });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("gives a suite that needs a missing program the same advice instead of skipping it", () => {
    expect(() => requireProgram("cmark-gfm", { PATH: pathWith({}) })).toThrow(
      /cmark-gfm is missing for the tests:\n {2}- cmark-gfm: not found on PATH\n[\s\S]*apt-get install -y cmark-gfm/,
    );
  });
});
