// Loupe's side of the drift guard (test/drift/): one round in a child process, printing one JSON
// line. Figures are each operation's own CPU time in the process (without the process's start,
// which no change to the workspace, search or diff code moves) and its peak resident set: before
// anything ran (the idle process's own) and after the fetch. The search runs once, then
// `warm-runs` more times, as in the App's warm repository worker (modules loaded, code optimised),
// each on a freshly opened repository so no object comes from an earlier search's cache; its
// figure is the median of those.
//
//   node test/support/drift-loupe.ts round <url> <head> <merge-base> <tmp> <repository> <query> <warm-runs>

import { readFileSync } from "node:fs";
import { detectRenames } from "../../src/diff/detect-renames.ts";
import { LARGE_FILE_READS_PER_DIFF } from "../../src/tools/large-file.ts";
import { DEFAULT_TOOL_LIMITS } from "../../src/tools/limits.ts";
import { createToolRegistry } from "../../src/tools/registry.ts";
import { formatChangePatch } from "../../src/tools/unified-diff.ts";
import { fetchWorkspace } from "../../src/workspace/fetch.ts";
import { openLocalRepository } from "../../src/workspace/open-local.ts";
import { diffSnapshots } from "../../src/workspace/tree-diff.ts";

const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function search(dir: string, head: string, query: string): Promise<number> {
  const workspace = await openLocalRepository({ dir, base: head, head });
  const registry = createToolRegistry(workspace);
  const parsed = registry.parseArguments("search_repository", { query });
  if (!parsed.ok) throw new Error(parsed.message);
  const start = cpuMs();
  const result = await registry.execute("search_repository", parsed.args);
  const spent = cpuMs() - start;
  await workspace.dispose();
  if (!result.content.includes('"matches":[]')) throw new Error(`unexpected search result ${result.content}`);
  return spent;
}

async function diff(dir: string, base: string, head: string): Promise<{ files: number; cpuMs: number }> {
  const start = cpuMs();
  const workspace = await openLocalRepository({ dir, base, head });
  const changes = await detectRenames(diffSnapshots(workspace.mergeBase, workspace.head), {
    objects: workspace.objects,
  });
  const context = {
    objects: workspace.objects,
    maxFileBytes: DEFAULT_TOOL_LIMITS.maxFileBytes,
    largeFileReads: { remaining: LARGE_FILE_READS_PER_DIFF },
  };
  let bytes = 0;
  for (const change of changes) bytes += Buffer.byteLength(await formatChangePatch(change, context));
  await workspace.dispose();
  if (bytes === 0) throw new Error("the diff is empty");
  return { files: changes.length, cpuMs: cpuMs() - start };
}

/** The process's peak resident set so far (Linux: VmHWM), in MB. */
function peakRssMb(): number {
  const line = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
  if (line === null) throw new Error("no VmHWM in /proc/self/status");
  return Number(line[1]) / 1024;
}

async function fetchOnce(url: string, headSha: string, mergeBaseSha: string, tmpRoot: string) {
  const start = cpuMs();
  const workspace = await fetchWorkspace({ url, headSha, mergeBaseSha, tmpRoot });
  const spent = cpuMs() - start;
  await workspace.dispose();
  return spent;
}

async function warmSearch(dir: string, head: string, query: string, warmRuns: number) {
  await search(dir, head, query); // the first: code not yet optimised
  const warm: number[] = [];
  for (let run = 0; run < warmRuns; run += 1) warm.push(await search(dir, head, query));
  return warm.sort((a, b) => a - b)[Math.floor(warm.length / 2)]!;
}

const [mode, ...args] = process.argv.slice(2);
let report: object;
if (mode === "round") {
  // One round of the guard in one process: the idle peak, then the fetch (and the peak it reached),
  // then the search and the diff on the fetched commits as the server holds them.
  const [url, head, mergeBase, tmpRoot, dir, query, warmRuns] = args as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const idleRssMb = peakRssMb();
  const fetchCpuMs = await fetchOnce(url, head, mergeBase, tmpRoot);
  const fetchRssMb = peakRssMb();
  const searchCpuMs = await warmSearch(dir, head, query, Number(warmRuns));
  const { cpuMs: diffCpuMs } = await diff(dir, mergeBase, head);
  report = { idleRssMb, fetchCpuMs, fetchRssMb, searchCpuMs, diffCpuMs };
} else {
  process.stderr.write(
    "usage: node test/support/drift-loupe.ts round <url> <head> <merge-base> <tmp> <repository> <query> <warm-runs>\n",
  );
  process.exit(2);
}
process.stdout.write(`${JSON.stringify(report)}\n`);
