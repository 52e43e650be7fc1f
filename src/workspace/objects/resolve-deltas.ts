// Pass 2 of indexing a pack (index-pack.ts): every delta resolved from its base, the way
// `git index-pack` does, depth first from each base down through the deltas made on it, so that
// only the chain being resolved is in memory; a thin pack's bases come from the store.

import { applyDelta } from "./delta.ts";
import type { GitObject } from "./git-object.ts";
import { corruptPack } from "./pack-entry-reader.ts";
import type { PackEntryReader } from "./pack-entry-reader.ts";
import { isResolved, ofsChildren, oidHex, type PackTable, recordObjectId, TYPE_NAMES } from "./pack-table.ts";

const MAX_CHAIN = 10_000;
const corrupt = corruptPack;

/**
 * Pass 2: every delta, reached from its base. Each entry that deltas are made on is inflated once
 * more and its deltas applied depth first (a REF_DELTA joins the walk when the object it names gets
 * its id); what is left names bases outside the pack, which a thin pack takes from the store.
 */
export async function resolveDeltas(
  table: PackTable,
  reader: PackEntryReader,
  readExternal: (oid: string) => Promise<GitObject | undefined>,
): Promise<void> {
  const ofs = ofsChildren(table);
  const hasChildren = (entry: number): boolean =>
    ofs.first[entry + 1]! > ofs.first[entry]! ||
    (table.refDeltas.size > 0 && table.refDeltas.has(oidHex(table, entry)));
  let unresolved = 0;
  for (let entry = 0; entry < table.count; entry += 1) {
    if (!isResolved(table, entry)) unresolved += 1;
  }
  if (unresolved === 0) return;
  const inflate = (entry: number): Buffer => {
    const dataStart = table.offsets[entry]! + table.headerLengths[entry]!;
    return reader.inflateAt(dataStart, table.sizes[entry]!, table.offsets[entry + 1]! - dataStart).data;
  };
  const walk = (root: GitObject, from: Root): void => {
    unresolved -= walkDeltas(table, ofs, inflate, root, from);
  };
  for (let entry = 0; entry < table.count && unresolved > 0; entry += 1) {
    if (table.bases[entry] !== -1 || !isResolved(table, entry) || !hasChildren(entry)) continue;
    walk({ type: TYPE_NAMES[table.kinds[entry]!]!, bytes: inflate(entry) }, { entry });
  }
  // What is left waits on objects outside the pack (a thin pack's bases), or on nothing at all.
  for (const baseOid of [...table.refDeltas.keys()]) {
    const waiting = table.refDeltas.get(baseOid);
    if (waiting === undefined || waiting.every((entry) => isResolved(table, entry))) continue;
    const base = await readExternal(baseOid);
    if (base !== undefined) walk(base, { oid: baseOid });
  }
  if (unresolved > 0) {
    throw corrupt(`${unresolved} deltas name bases that are neither in the pack nor in the store`);
  }
}

/** Where a walk starts: an entry of the pack, or an object of the store named by its id. */
type Root =
  | { readonly entry: number; readonly oid?: undefined }
  | { readonly entry?: undefined; readonly oid: string };

interface Frame {
  readonly object: GitObject;
  /** The entry's OFS_DELTA children, then its REF_DELTA ones; `next` is where the walk is. */
  readonly children: ArrayLike<number>;
  next: number;
}

/**
 * Resolves every delta below `root` (an entry of the pack, or an object of the store),
 * depth first; only the chain from the root to the delta being applied is held. Answers how many
 * deltas it resolved.
 */
function walkDeltas(
  table: PackTable,
  ofs: ReturnType<typeof ofsChildren>,
  inflate: (entry: number) => Buffer,
  root: GitObject,
  from: Root,
): number {
  const childrenOf = (entry: number | undefined, oid: string | undefined): ArrayLike<number> => {
    const byOffset =
      entry === undefined ? [] : ofs.children.subarray(ofs.first[entry]!, ofs.first[entry + 1]!);
    const byId = table.refDeltas.size === 0 ? undefined : table.refDeltas.get(oid ?? oidHex(table, entry!));
    if (byId === undefined) return byOffset;
    const pending = byId.filter((child) => !isResolved(table, child));
    return byOffset.length === 0 ? pending : [...byOffset, ...pending];
  };
  const stack: Frame[] = [{ object: root, children: childrenOf(from.entry, from.oid), next: 0 }];
  let resolved = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.children.length) {
      stack.pop();
      continue;
    }
    const child = frame.children[frame.next++]!;
    if (isResolved(table, child)) continue; // a REF_DELTA named twice
    const bytes = applyDelta(frame.object.bytes, inflate(child));
    const { type } = frame.object;
    recordObjectId(table, child, type, bytes);
    resolved += 1;
    const children = childrenOf(child, undefined);
    if (children.length === 0) continue;
    if (stack.length >= MAX_CHAIN) throw corrupt(`a delta chain is longer than ${MAX_CHAIN}`);
    stack.push({ object: { type, bytes }, children, next: 0 });
  }
  return resolved;
}
