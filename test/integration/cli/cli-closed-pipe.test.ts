// `loupe … | head`: the reader of standard output goes away before Loupe writes. The real command
// in a child process whose stdout pipe is closed at once: no unhandled EPIPE, no stack trace, and
// the command's own exit code.

import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const NODE = path.join(ROOT, "node_modules", ".bin", "node");

let repo: FixtureRepo;

beforeAll(() => {
  repo = createRepo();
  // 200 KB: more than a pipe's buffer, so the write cannot land before the reader is gone.
  repo.write(
    "big.txt",
    Array.from({ length: 5000 }, (_, i) => `line ${i} of a file longer than a pipe`).join("\n"),
  );
  repo.commit("base");
});

afterAll(() => repo?.dispose());

/** Runs `loupe <args>` with its stdout's reading end closed before it can write. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, ["src/cli.ts", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("loupe with a reader that went away", () => {
  it.each([
    ["--help", ["--help"]],
    [
      "a tool's long answer",
      ["tool", "read_repository_file", "--base", "HEAD", "--head", "HEAD", "--args", '{"path":"big.txt"}'],
    ],
  ])("ends quietly with its own exit code: %s", async (_label, args) => {
    const full = args[0] === "tool" ? [...args, "--repo", repo.dir] : args;
    const run = await withClosedStdout(full);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  it("still says a usage error on stderr, exit 2", async () => {
    const run = await withClosedStdout(["review", "--format", "xml"]);
    expect(run.code).toBe(2);
    // The message names its command, once (not "loupe: loupe review …").
    expect(run.stderr).toBe("loupe review needs --repo\n");
  });
});
