// search_repository over the whole head tree vs `git grep -F -n` on a checkout, and
// inspect_git_diff over a 6,000+-file change vs `git diff`, side by side in one run on the
// fixture that bench/build-fixture-repo.sh builds. Prints medians and ratios (3 runs each).
// The tool stops at its `max_bytes` cap, so the diff is also measured like for like: rename
// detection plus the same renderer producing the whole diff of every changed file, uncapped,
// against the whole `git diff -M`. Past git's rename limit (1,000² pairs) both skip the inexact
// matrix, as they do on this diff; the last row raises the limit on both sides so the matrix of
// every remaining pair is measured too.
// usage: node bench/tools-vs-native.ts [fixture-work-tree]
import { execFileSync } from "node:child_process";
import { detectRenames } from "../src/diff/detect-renames.ts";
import { LARGE_FILE_READS_PER_DIFF } from "../src/tools/large-file.ts";
import { DEFAULT_TOOL_LIMITS } from "../src/tools/limits.ts";
import { createToolRegistry } from "../src/tools/registry.ts";
import { formatChangePatch } from "../src/tools/unified-diff.ts";
import { openLocalRepository } from "../src/workspace/open-local.ts";
import { diffSnapshots } from "../src/workspace/tree-diff.ts";

const dir = process.argv[2] ?? "bench/.work/fixture/src";
const git = (...args: string[]) =>
  execFileSync("git", ["-C", dir, ...args], { maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] });
const [from, to] = git("log", "--format=%H", "--reverse", "--grep=^import date-fns")
  .toString()
  .trim()
  .split("\n");
const head = git("rev-parse", "HEAD").toString().trim();
const query = "loupe-bench-literal-that-is-nowhere";

async function median(run: () => unknown | Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[1]!;
}

async function measure(
  base: string,
  headRev: string,
  name: "search_repository" | "inspect_git_diff",
  args: unknown,
  native: () => unknown,
) {
  const workspace = await openLocalRepository({ dir, base, head: headRev });
  const parsed = createToolRegistry(workspace).parseArguments(name, args);
  if (!parsed.ok) throw new Error(parsed.message);
  // A fresh view each run: the diff's change list (with rename detection) is computed once per
  // view, and the first call of a review pays for it.
  const loupe = await median(() => createToolRegistry({ ...workspace }).execute(name, parsed.args));
  const git = await median(native);
  await workspace.dispose();
  return {
    tool: name,
    loupe_ms: Math.round(loupe),
    native_ms: Math.round(git),
    ratio: +(loupe / git).toFixed(1),
  };
}

const search = await measure(head, head, "search_repository", { query, limit: 100 }, () => {
  try {
    git("grep", "-F", "-n", query, head);
  } catch {
    // exit 1 = no match, the case measured
  }
});
const diff = await measure(from!, to!, "inspect_git_diff", { max_bytes: 131072 }, () =>
  git("diff", from!, to!),
);
/** Per `diff --git` header, that file's part of a whole diff. */
function filePatches(diff: string): Map<string, string> {
  const parts = diff.split(/(?=^diff --git )/m).filter((part) => part !== "");
  return new Map(parts.map((part) => [part.slice(0, part.indexOf("\n")), part]));
}

async function measureFullDiff() {
  const workspace = await openLocalRepository({ dir, base: from!, head: to! });
  let ours = "";
  const loupe = await median(async () => {
    const patches: string[] = [];
    const changes = await detectRenames(diffSnapshots(workspace.mergeBase, workspace.head), {
      objects: workspace.objects,
    });
    const largeFileReads = { remaining: LARGE_FILE_READS_PER_DIFF };
    for (const change of changes) {
      const context = {
        objects: workspace.objects,
        maxFileBytes: DEFAULT_TOOL_LIMITS.maxFileBytes,
        largeFileReads,
      };
      patches.push(await formatChangePatch(change, context));
    }
    ours = patches.join("");
  });
  // git's text is bytes, ours is UTF-8 of the same bytes.
  let theirs = "";
  const native = await median(() => {
    theirs = git("diff", "-M", from!, to!).toString("utf8");
  });
  await workspace.dispose();
  const oursByFile = filePatches(ours);
  const theirsByFile = filePatches(theirs);
  const identical = [...theirsByFile].filter(([header, patch]) => oursByFile.get(header) === patch).length;
  return {
    tool: "full diff render, uncapped",
    loupe_ms: Math.round(loupe),
    native_ms: Math.round(native),
    ratio: +(loupe / native).toFixed(1),
    loupe_bytes: Buffer.byteLength(ours),
    native_bytes: Buffer.byteLength(theirs),
    files_identical_to_git: `${identical}/${theirsByFile.size}`,
  };
}
const fullDiff = await measureFullDiff();

/** Rename detection alone with the limit raised past this diff's 2,013 × 1,469 pairs. */
async function measureMatrix() {
  const limit = 3000;
  const workspace = await openLocalRepository({ dir, base: from!, head: to! });
  const raw = diffSnapshots(workspace.mergeBase, workspace.head);
  let ours: string[] = [];
  const loupe = await median(async () => {
    const changes = await detectRenames(raw, { objects: workspace.objects, renameLimit: limit });
    ours = changes
      .filter((c) => c.status === "renamed")
      .map((c) => `${c.similarity} ${c.previousPath} ${c.path}`);
  });
  let theirs: string[] = [];
  const native = await median(() => {
    theirs = git("-c", `diff.renameLimit=${limit}`, "diff", "-M", "--name-status", from!, to!)
      .toString("utf8")
      .split("\n")
      .filter((row) => row.startsWith("R"))
      .map((row) => {
        const [status, previous, path] = row.split("\t");
        return `${Number(status!.slice(1))} ${previous} ${path}`;
      });
  });
  await workspace.dispose();
  const same = ours.length === theirs.length && ours.every((row, i) => row === theirs[i]);
  return {
    tool: `rename detection, renameLimit ${limit} (every pair scored)`,
    loupe_ms: Math.round(loupe),
    native_ms: Math.round(native),
    ratio: +(loupe / native).toFixed(1),
    renames: `${ours.length} (git ${theirs.length}), ${same ? "identical" : "different"} pairs`,
  };
}
const matrix = await measureMatrix();
const files = git("diff", "--name-only", from!, to!).toString().trim().split("\n").length;
process.stdout.write(
  `${JSON.stringify({ ...search, files: git("ls-tree", "-r", "--name-only", head).toString().trim().split("\n").length })}\n`,
);
process.stdout.write(`${JSON.stringify({ ...diff, files })}\n`);
process.stdout.write(`${JSON.stringify({ ...fullDiff, files })}\n`);
process.stdout.write(`${JSON.stringify(matrix)}\n`);
