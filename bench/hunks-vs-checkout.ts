// formatHunks (src/tools/hunks.ts: the line diff and the hunks of every text change the diff tool
// shows) against another checkout's (the commit before a change, as `git worktree add /tmp/before
// <commit>`), side by side in one process, on the changed files of a real range: every pair of
// blobs is read first, then ROUNDS alternating rounds diff them all; the median CPU of each, and
// the two outputs compared.
//   node_modules/.bin/node bench/hunks-vs-checkout.ts OTHER_CHECKOUT REPOSITORY BASE HEAD [ROUNDS]

import fs from "node:fs";
import path from "node:path";
import { formatHunks } from "../src/tools/hunks.ts";
import { openLocalRepository } from "../src/workspace/open-local.ts";
import { looksBinary } from "../src/workspace/text.ts";
import { diffSnapshots } from "../src/workspace/tree-diff.ts";

const [otherArg, dir, base, head, roundsArg] = process.argv.slice(2);
const OTHER = path.resolve(otherArg ?? "");
const otherModule = path.join(OTHER, "src", "tools", "hunks.ts");
if (!fs.existsSync(otherModule) || dir === undefined || base === undefined || head === undefined) {
  process.stderr.write("usage: bench/hunks-vs-checkout.ts OTHER_CHECKOUT REPOSITORY BASE HEAD [ROUNDS]\n");
  process.exit(2);
}
const ROUNDS = Number(roundsArg ?? 9);
const { formatHunks: otherFormatHunks } = (await import(otherModule)) as { formatHunks: typeof formatHunks };

const workspace = await openLocalRepository({ dir, base, head });
const pairs: [Uint8Array, Uint8Array][] = [];
const empty = new Uint8Array();
for (const change of diffSnapshots(workspace.mergeBase, workspace.head)) {
  const read = async (oid: string | undefined) =>
    oid === undefined ? empty : await workspace.objects.readBlobWithin(oid, 1 << 20);
  const oldBytes = await read(change.oldEntry?.oid);
  const newBytes = await read(change.newEntry?.oid);
  if (oldBytes === "too_large" || newBytes === "too_large") continue;
  if (looksBinary(oldBytes) || looksBinary(newBytes)) continue;
  pairs.push([oldBytes, newBytes]);
}
await workspace.dispose();

function cpuMs(format: typeof formatHunks): number {
  const before = process.cpuUsage();
  for (const [oldBytes, newBytes] of pairs) format(oldBytes, newBytes);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const [oldBytes, newBytes] of pairs)
  if (formatHunks(oldBytes, newBytes).join("\n") !== otherFormatHunks(oldBytes, newBytes).join("\n"))
    throw new Error("the two checkouts' hunks differ");
const here: number[] = [];
const other: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  other.push(cpuMs(otherFormatHunks));
  here.push(cpuMs(formatHunks));
}
const ratio = median(here) / median(other);
process.stdout.write(
  `${pairs.length} text changes: other ${median(other).toFixed(0)} ms, here ${median(here).toFixed(0)} ms, here / other ${ratio.toFixed(2)}\n`,
);
