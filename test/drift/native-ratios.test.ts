// The drift guard: Loupe's workspace fetch, search and diff as ratios to native git doing the same
// work, measured side by side in this run on a repository the test builds, so that a change that
// makes one of them slower fails `npm run check` instead of waiting for someone to re-run bench/.
//
// Robust to a shared machine: every figure is CPU time (user + system), which other processes'
// load disturbs far less than wall time; Loupe and git run alternately, ROUNDS times, each round's
// ratio is taken against that same round's git (a burst of load shifts both), and the median of
// the rounds is compared with its bound. Loupe's figures are each operation's own CPU time in its
// process (what the App's repository worker pays per review; a process's start is the same before
// and after any change to these paths); git's come from GNU time, which counts in 10 ms steps, so
// the quick ones run several times in one measurement. Peak memory is Loupe's beyond what its idle
// process holds, against git's whole peak.
//
// BOUNDS are the medians measured on the development machine (bench/README.md, "Drift guard"),
// rounded up; MARGIN is what a shared machine moved them in repeated runs. A slowdown like the
// ones that drifted in before (a fetch going from 0.5× to 0.9× of git's time) fails.

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { type ChildUsage, runMeasured } from "../support/child-usage.ts";
import { buildDriftFixture, type DriftFixture } from "../support/drift-fixture.ts";
import { gitEnvironment } from "../support/git-fixture.ts";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.ts";

const ROUNDS = 7;
const MARGIN = 1.3;
const GREP_REPEATS = 10;
const DIFF_REPEATS = 10;
const QUERY = "loupe-drift-literal-that-is-nowhere";
const root = path.resolve(import.meta.dirname, "../..");
const child = path.join(root, "test/support/drift-loupe.ts");

const BOUNDS = {
  fetchCpu: 1,
  fetchMemory: 1.7,
  searchWarmCpu: 2.2,
  diffCpu: 5.5,
} as const;
type Figure = keyof typeof BOUNDS;
const FIGURES = Object.keys(BOUNDS) as Figure[];

let fixture: DriftFixture;
let server: GitHttpServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fixture = buildDriftFixture({ files: 1000 });
  server = await startGitHttpServer({ root: fixture.root });
  // Loupe's modules compiled once and cached, as an installed `loupe` runs them (bin/loupe.js).
  env = { ...gitEnvironment(fixture.home), NODE_COMPILE_CACHE: path.join(fixture.root, "compile-cache") };
}, 120_000);

afterAll(async () => {
  await server?.stop();
  fixture?.dispose();
});

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Round {
  readonly idleRssMb: number;
  readonly fetchCpuMs: number;
  readonly fetchRssMb: number;
  readonly searchCpuMs: number;
  readonly diffCpuMs: number;
}

async function loupeRound(tmp: string): Promise<Round> {
  const { head, mergeBase, bare } = fixture;
  const args = ["round", server.url("repo"), head, mergeBase, tmp, bare, QUERY, "2"];
  const usage = await runMeasured(process.execPath, [child, ...args], { env, cwd: root });
  return JSON.parse(usage.stdout) as Round;
}

/** git's CPU time for one run of `script` (sh, "$@" = args), from `repeats` runs in one measurement. */
async function native(script: string, args: readonly string[], repeats = 1): Promise<ChildUsage> {
  const loop = `for _ in $(seq ${repeats}); do ${script}; done; true`;
  const usage = await runMeasured("sh", ["-c", loop, "native", ...args], { env });
  return { ...usage, cpuMs: usage.cpuMs / repeats };
}

async function nativeRound(tmp: string) {
  const { head, mergeBase, bare } = fixture;
  const fetched = await native(
    'git init -q --bare "$1/native.git" && git -C "$1/native.git" fetch -q --depth 1 "$2" "$3" && git -C "$1/native.git" fetch -q --depth 1 "$2" "$4"',
    [tmp, server.url("repo"), head, mergeBase],
  );
  const grep = await native('git -C "$1" grep -F -n "$2" "$3"', [bare, QUERY, head], GREP_REPEATS);
  const diff = await native(
    'git -C "$1" diff -M "$2" "$3" > /dev/null',
    [bare, mergeBase, head],
    DIFF_REPEATS,
  );
  return { fetched, grep, diff };
}

async function inTemporary<T>(run: (tmp: string) => Promise<T>): Promise<T> {
  const tmp = fs.mkdtempSync(path.join(fixture.root, "round-"));
  try {
    return await run(tmp);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

test("fetch, search and diff stay within their recorded ratios to native git", async () => {
  // Warm-up: the compile cache filled, the page cache holding the fixture.
  await inTemporary(loupeRound);
  await inTemporary(nativeRound);
  const rounds: Record<Figure, number[]> = { fetchCpu: [], fetchMemory: [], searchWarmCpu: [], diffCpu: [] };
  const lines: string[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const ours = await inTemporary(loupeRound);
    const { fetched, grep, diff } = await inTemporary(nativeRound);
    rounds.fetchCpu.push(ours.fetchCpuMs / fetched.cpuMs);
    rounds.fetchMemory.push((ours.fetchRssMb - ours.idleRssMb) / fetched.peakRssMb);
    rounds.searchWarmCpu.push(ours.searchCpuMs / grep.cpuMs);
    rounds.diffCpu.push(ours.diffCpuMs / diff.cpuMs);
    lines.push(
      `round ${round}: fetch ${ours.fetchCpuMs.toFixed(0)} / ${fetched.cpuMs.toFixed(0)} ms ` +
        `(peak ${ours.fetchRssMb.toFixed(0)} MB, idle ${ours.idleRssMb.toFixed(0)}, git ${fetched.peakRssMb.toFixed(0)}), ` +
        `search ${ours.searchCpuMs.toFixed(0)} / ${grep.cpuMs.toFixed(0)} ms, diff ${ours.diffCpuMs.toFixed(0)} / ${diff.cpuMs.toFixed(0)} ms`,
    );
  }
  const figures = Object.fromEntries(FIGURES.map((figure) => [figure, median(rounds[figure])])) as Record<
    Figure,
    number
  >;
  const table = FIGURES.map(
    (figure) =>
      `${figure}: ${figures[figure].toFixed(2)} (rounds ${rounds[figure].map((r) => r.toFixed(2)).join(", ")}; bound ${BOUNDS[figure]} × ${MARGIN})`,
  );
  process.stderr.write(`drift guard, Loupe / native git:\n${[...table, ...lines].join("\n")}\n`);
  const over = FIGURES.filter((figure) => figures[figure] > BOUNDS[figure] * MARGIN);
  expect({ over, figures }).toEqual({ over: [], figures });
}, 300_000);
