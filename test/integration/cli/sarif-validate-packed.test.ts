// `loupe sarif validate` as a packed install runs it: package.json's "files" (bin/, dist/) with
// dist/ compiled by the build `npm pack` runs (tsconfig.build.json), so the schema must reach
// dist/ beside the compiled validator; bin/loupe.js picks dist/ when there is no src/. The install's
// dependencies are this checkout's node_modules, linked.

import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { files: string[] };
let install: string;

beforeAll(() => {
  install = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-packed-"));
  execFileSync(
    path.join(ROOT, "node_modules", ".bin", "tsc"),
    ["-p", path.join(ROOT, "tsconfig.build.json"), "--outDir", path.join(install, "dist")],
    { cwd: ROOT },
  );
  fs.cpSync(path.join(ROOT, "bin"), path.join(install, "bin"), { recursive: true });
  fs.copyFileSync(path.join(ROOT, "package.json"), path.join(install, "package.json"));
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, "node_modules")), path.join(install, "node_modules"));
}, 120_000);

afterAll(() => fs.rmSync(install, { recursive: true, force: true }));

describe("loupe sarif validate in a packed install", () => {
  it("ships the schema in dist/, which the package's files include", () => {
    expect(pkg.files).toContain("dist/");
    // The build writes the JSON anew (its own indentation): the same schema, not the same bytes.
    const read = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
    expect(read(path.join(install, "dist", "review", "sarif-schema-2.1.0.json"))).toEqual(
      read(path.join(ROOT, "src", "review", "sarif-schema-2.1.0.json")),
    );
  });

  it("validates with the compiled command", () => {
    const file = path.join(install, "bad.sarif");
    fs.writeFileSync(file, JSON.stringify({ version: "2.1.0", runs: [{}] }));
    const run = spawnSync(
      process.execPath,
      [path.join(install, "bin", "loupe.js"), "sarif", "validate", file],
      {
        encoding: "utf8",
      },
    );
    expect([run.status, run.stdout]).toEqual([1, ""]);
    expect(run.stderr.split("\n").filter((line) => line !== "")).toEqual([
      `${file}: schema /runs/0: must have required property 'tool'`,
      `${file}: tool.driver.name missing`,
    ]);
  });
});
