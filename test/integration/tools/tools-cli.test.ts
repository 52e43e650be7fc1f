// `loupe tool`: the real command in a child process over a native-git repository, and its
// usage rules in process with an injected opener over an in-memory repository.

import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { runToolCommand } from "../../../src/cli/tool-command.ts";
import { main } from "../../../src/cli.ts";
import type { Workspace } from "../../../src/workspace/types.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { memoryRepository } from "../../support/memory-repository.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const NODE = path.join(ROOT, "node_modules", ".bin", "node");

let repo: FixtureRepo;

beforeAll(() => {
  repo = createRepo();
  repo.write("src/a.ts", "export const a = 1;\n");
  repo.commit("base");
  repo.branch("feature");
  repo.write("src/a.ts", "export const a = 2;\n");
  repo.commit("feature");
});

afterAll(() => repo?.dispose());

function loupe(...args: string[]) {
  return spawnSync(NODE, ["src/cli.ts", "tool", ...args], { cwd: ROOT, encoding: "utf8" });
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), env: {} },
    out,
    err,
  };
}

describe("loupe tool (child process)", () => {
  it("prints the model's tool content as one JSON line and exits 0", () => {
    const run = loupe(
      "read_repository_file",
      ...["--repo", repo.dir, "--base", "main", "--head", "feature", "--args", '{"path":"src/a.ts"}'],
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      '{"ok":true,"path":"src/a.ts","start_line":1,"end_line":1,"total_lines":1,"content":"1: export const a = 2;","truncated":false}\n',
    );
  });

  it("prints a tool-level failure the same way, still exit 0", () => {
    const run = loupe("inspect_git_diff", "--repo", repo.dir, "--base", "main", "--head", "feature");
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ ok: true, files: [{ path: "src/a.ts", status: "modified" }] });
    expect(result.diff).toContain("+export const a = 2;");
    const failed = loupe(
      "read_repository_file",
      "--repo",
      repo.dir,
      "--base",
      "main",
      "--head",
      "main",
      "--args",
      '{"path":"../x"}',
    );
    expect(failed.status).toBe(0);
    expect(JSON.parse(failed.stdout)).toMatchObject({ ok: false, error: { code: "invalid_path" } });
  });

  it.each([
    [["grep_everything", "--repo", ".", "--base", "a", "--head", "b"], "unknown tool"],
    [["read_repository_file", "--repo", ".", "--base", "a"], "needs --head"],
    [
      ["read_repository_file", "--repo", ".", "--base", "a", "--head", "b", "--args", "{path"],
      "not valid JSON",
    ],
    [
      [
        "search_repository",
        "--repo",
        ".",
        "--base",
        "a",
        "--head",
        "b",
        "--args",
        '{"query":"x","regex":true}',
      ],
      "regex",
    ],
  ])("exits 2 with one line for bad usage %#", (args, fragment) => {
    const run = loupe(...args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(fragment);
  });
});

describe("loupe tool (in process)", () => {
  const view = memoryRepository({ head: { "a.txt": "one\ntwo\n" } });
  const opener = () => {
    const calls = { opened: 0, disposed: 0 };
    const open = async (): Promise<Workspace> => {
      calls.opened += 1;
      const dispose = async (): Promise<void> => {
        calls.disposed += 1;
      };
      return { ...view, dispose };
    };
    return { calls, open };
  };
  const flags = ["--repo", "mem", "--base", "b", "--head", "h"];

  it("runs the call against the opened workspace and always disposes it", async () => {
    const { calls, open } = opener();
    const { io, out, err } = capture();
    const code = await runToolCommand(["list_repository_files", ...flags], io, { openRepository: open });
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(out).toEqual(['{"ok":true,"path":"","files":["a.txt"],"truncated":false,"next_cursor":null}\n']);
    expect(calls).toEqual({ opened: 1, disposed: 1 });
  });

  it.each([
    [["read_repository_file", ...flags], "--args rejected for read_repository_file"],
    [["read_repository_file", ...flags, "--args", '{"path":"a.txt","start_line":0}'], "start_line"],
    [["read_repository_file", ...flags, "--args", "[]"], "Expected Object"],
    [["read_repository_file", ...flags, "--verbose", "1"], "unknown option"],
    [["read_repository_file", ...flags, "--args"], "--args needs a value"],
    [[], "needs a tool name"],
  ])("refuses bad usage %# before opening anything", async (argv, fragment) => {
    const { calls, open } = opener();
    const { io, out, err } = capture();
    expect(await runToolCommand(argv, io, { openRepository: open })).toBe(2);
    expect(out).toEqual([]);
    expect(err).toHaveLength(1);
    expect(err[0]).toContain(fragment);
    expect(err[0]!.trimEnd()).not.toContain("\n");
    expect(calls.opened).toBe(0);
  });

  it("turns a directory that is not a repository into bad usage (exit 2) through the dispatcher", async () => {
    const { io, out, err } = capture();
    const code = await main(
      ["tool", "list_repository_files", "--repo", repo.home, "--base", "a", "--head", "b"],
      io,
    );
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err).toHaveLength(1);
    expect(err[0]).not.toContain(repo.home);
  });
});
