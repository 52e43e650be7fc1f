// What the committed bundle buys a workflow: the action's start-to-exit on an event it skips (no
// network: it reads its inputs and event and writes its summary and outputs), from the bundle
// (dist-action/index.js, what GitHub runs) and from the sources (src/action.ts, Node stripping
// types and loading each module from node_modules). Runs alternate; only the ratio is reported
// as meaningful on a shared machine.
//
//   node_modules/.bin/node bench/action-start.ts [runs=15]

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const runs = Number(process.argv[2] ?? 15);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-action-start-"));
const file = (name: string, text = "") => {
  fs.writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};
const env = {
  PATH: process.env.PATH ?? "",
  GITHUB_EVENT_NAME: "push",
  GITHUB_EVENT_PATH: file("event.json", "{}"),
  GITHUB_REPOSITORY: "octo/values",
  GITHUB_OUTPUT: file("output"),
  GITHUB_STEP_SUMMARY: file("summary.md"),
  "INPUT_OPENAI-BASE-URL": "https://models.invalid/v1",
  "INPUT_OPENAI-API-KEY": "bench-key",
  "INPUT_GITHUB-TOKEN": "bench-token",
};

function once(entry: string): number {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, [entry], { env, cwd: dir, encoding: "utf8" });
  if (child.status !== 0) throw new Error(`${entry} exited ${child.status}: ${child.stdout}${child.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const bundle: number[] = [];
const sources: number[] = [];
for (let i = 0; i < runs; i++) {
  bundle.push(once(path.join(ROOT, "dist-action", "index.js")));
  sources.push(once(path.join(ROOT, "src", "action.ts")));
}
fs.rmSync(dir, { recursive: true, force: true });
const size = fs.statSync(path.join(ROOT, "dist-action", "index.js")).size;
console.log(`bundle: ${(size / 1024).toFixed(0)} KiB`);
console.log(
  `bundle start-to-exit median ${median(bundle).toFixed(0)} ms, sources ${median(sources).toFixed(0)} ms`,
);
console.log(`bundle / sources: ${(median(bundle) / median(sources)).toFixed(2)}`);
