// search_repository over the whole head tree vs `git grep -F -n` on a checkout, and
// inspect_git_diff over a 6,000+-file change vs `git diff`, side by side in one run on the
// fixture that bench/build-fixture-repo.sh builds. Prints medians and ratios (3 runs each).
// The tool stops at its `max_bytes` cap, so the diff is also measured like for like: the same
// renderer producing the whole diff of every changed file, uncapped, against the whole `git diff`.
// usage: node bench/tools-vs-native.ts [fixture-work-tree]
import { execFileSync } from "node:child_process";
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
  const tools = createToolRegistry(workspace);
  const parsed = tools.parseArguments(name, args);
  if (!parsed.ok) throw new Error(parsed.message);
  const loupe = await median(() => tools.execute(name, parsed.args));
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
    for (const change of diffSnapshots(workspace.mergeBase, workspace.head)) {
      patches.push(await formatChangePatch(change, workspace.objects, DEFAULT_TOOL_LIMITS.maxFileBytes));
    }
    ours = patches.join("");
  });
  // Renames at 100% only, like the tool; git's text is bytes, ours is UTF-8 of the same bytes.
  let theirs = "";
  const native = await median(() => {
    theirs = git("diff", "--find-renames=100%", from!, to!).toString("utf8");
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
const files = git("diff", "--name-only", from!, to!).toString().trim().split("\n").length;
process.stdout.write(
  `${JSON.stringify({ ...search, files: git("ls-tree", "-r", "--name-only", head).toString().trim().split("\n").length })}\n`,
);
process.stdout.write(`${JSON.stringify({ ...diff, files })}\n`);
process.stdout.write(`${JSON.stringify({ ...fullDiff, files })}\n`);
