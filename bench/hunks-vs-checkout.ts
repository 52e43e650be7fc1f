// formatHunks (src/tools/hunks.ts: the line diff and the hunks of every text change the diff tool
// shows) against another checkout's (the commit before a change, as `git worktree add /tmp/before
// <commit>`), side by side in one process, on the changed files of a real range: every pair of
// blobs is read first, then ROUNDS alternating rounds diff them all; the median CPU of each, and
// the two outputs compared.
//   node_modules/.bin/node bench/hunks-vs-checkout.ts OTHER_CHECKOUT REPOSITORY BASE HEAD [ROUNDS]

import { formatHunks } from "../src/tools/hunks.ts";
import { openLocalRepository } from "../src/workspace/open-local.ts";
import { looksBinary } from "../src/workspace/text.ts";
import { diffSnapshots } from "../src/workspace/tree-diff.ts";
import { importFromCheckout, sideBySide } from "./side-by-side.ts";

const USAGE = "bench/hunks-vs-checkout.ts OTHER_CHECKOUT REPOSITORY BASE HEAD [ROUNDS]";
const [otherArg, dir, base, head, roundsArg] = process.argv.slice(2);
const { formatHunks: otherFormatHunks } = await importFromCheckout<{ formatHunks: typeof formatHunks }>(
  otherArg,
  "src/tools/hunks.ts",
  USAGE,
);
if (dir === undefined || base === undefined || head === undefined) {
  process.stderr.write(`usage: ${USAGE}\n`);
  process.exit(2);
}
const ROUNDS = Number(roundsArg ?? 9);

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

for (const [oldBytes, newBytes] of pairs)
  if (formatHunks(oldBytes, newBytes).join("\n") !== otherFormatHunks(oldBytes, newBytes).join("\n"))
    throw new Error("the two checkouts' hunks differ");
const diffAll = (format: typeof formatHunks) => () => {
  for (const [oldBytes, newBytes] of pairs) format(oldBytes, newBytes);
};
sideBySide(`${pairs.length} text changes`, ROUNDS, diffAll(otherFormatHunks), diffAll(formatHunks));
