// bin/loupe, the shell launcher every installed `loupe` runs: which Node it picks and what it
// passes that Node. A copy of the launcher in a package of its own, with a stand-in `node` that
// prints its arguments, shows the command line the real Node would get (the packed installs in the
// end-to-end tier run the real one with the real Node 24).

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";

const LAUNCHER = path.resolve(import.meta.dirname, "..", "..", "..", "bin", "loupe");

let tmp: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "loupe-launcher-")));
});

afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A package at `dir` holding the launcher, and a stand-in Node at `nodeAt` that echoes its argv. */
function packageWithNode(dir: string, nodeAt: string): string {
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  fs.copyFileSync(LAUNCHER, path.join(dir, "bin", "loupe"));
  fs.chmodSync(path.join(dir, "bin", "loupe"), 0o755);
  fs.mkdirSync(path.dirname(nodeAt), { recursive: true });
  fs.writeFileSync(nodeAt, '#!/bin/sh\nprintf "%s\\n" "$0" "$@"\n');
  fs.chmodSync(nodeAt, 0o755);
  return path.join(dir, "bin", "loupe");
}

function launch(launcher: string, args: readonly string[]): string[] {
  const run = spawnSync(launcher, args, { encoding: "utf8", env: { PATH: "/usr/bin:/bin" } });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout.trimEnd().split("\n");
}

describe("bin/loupe", () => {
  it("runs the package's own Node with a small young generation, then bin/loupe.js and the arguments", () => {
    const pkg = path.join(tmp, "loupe-review");
    const node = path.join(pkg, "node_modules", "node", "bin", "node");
    const argv = launch(packageWithNode(pkg, node), [
      "tool",
      "search_repository",
      "--args",
      '{"query":"a b"}',
    ]);
    expect(argv).toEqual([
      node,
      "--max-semi-space-size=1",
      path.join(pkg, "bin", "loupe.js"),
      "tool",
      "search_repository",
      "--args",
      '{"query":"a b"}',
    ]);
  });

  it("finds the Node hoisted next to it, through the link npm makes in node_modules/.bin", () => {
    const modules = path.join(tmp, "project", "node_modules");
    const node = path.join(modules, "node", "bin", "node");
    const launcher = packageWithNode(path.join(modules, "loupe-review"), node);
    fs.mkdirSync(path.join(modules, ".bin"));
    fs.symlinkSync(path.relative(path.join(modules, ".bin"), launcher), path.join(modules, ".bin", "loupe"));
    const argv = launch(path.join(modules, ".bin", "loupe"), ["--version"]);
    expect(argv).toEqual([
      `${path.join(modules, "loupe-review")}/../node/bin/node`, // the launcher's own spelling
      "--max-semi-space-size=1",
      path.join(modules, "loupe-review", "bin", "loupe.js"),
      "--version",
    ]);
  });
});
