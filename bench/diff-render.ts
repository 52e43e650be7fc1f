// One whole diff as `inspect_git_diff` renders it, uncapped: the repository opened, the change
// list with rename detection, and every changed file's patch. Prints one JSON line (files, bytes,
// the in-process CPU time); with --out FILE, writes the diff there to compare with git's.
// usage: node bench/diff-render.ts <repository> <base> <head> [--out FILE]
import { writeFileSync } from "node:fs";
import { detectRenames } from "../src/diff/detect-renames.ts";
import { LARGE_FILE_READS_PER_DIFF } from "../src/tools/large-file.ts";
import { DEFAULT_TOOL_LIMITS } from "../src/tools/limits.ts";
import { formatChangePatch } from "../src/tools/unified-diff.ts";
import { openLocalRepository } from "../src/workspace/open-local.ts";
import { diffSnapshots } from "../src/workspace/tree-diff.ts";

const [dir, base, head, ...flags] = process.argv.slice(2);
if (dir === undefined || base === undefined || head === undefined) {
  process.stderr.write("usage: node bench/diff-render.ts <repository> <base> <head> [--out FILE]\n");
  process.exit(2);
}
const cpuBefore = process.cpuUsage();
const workspace = await openLocalRepository({ dir, base, head });
const changes = await detectRenames(diffSnapshots(workspace.mergeBase, workspace.head), {
  objects: workspace.objects,
});
const context = {
  objects: workspace.objects,
  maxFileBytes: DEFAULT_TOOL_LIMITS.maxFileBytes,
  largeFileReads: { remaining: LARGE_FILE_READS_PER_DIFF },
};
const patches: string[] = [];
for (const change of changes) patches.push(await formatChangePatch(change, context));
await workspace.dispose();
const cpu = process.cpuUsage(cpuBefore);
const out = flags.indexOf("--out");
const text = patches.join("");
if (out !== -1) writeFileSync(flags[out + 1]!, text);
process.stdout.write(
  `${JSON.stringify({ files: changes.length, bytes: Buffer.byteLength(text), cpuMs: Math.round((cpu.user + cpu.system) / 1000) })}\n`,
);
