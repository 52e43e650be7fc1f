// Reads git objects by id from a repository's object store: its packs (whole entries and delta
// chains, thin packs' external bases included) and loose objects, with a byte-bounded cache of
// resolved objects. It replaces isomorphic-git's reader on the hot path,
// which spends ~0.7 ms per blob in pure-JS inflate and pack parsing (bench/README.md, "Workspace
// fetch"); anything this reader does not understand (an old index version, say) goes to the
// injected fallback.
//
// Every object returned by id is proven to be that object, once: either hashed and compared with
// the id (and remembered as such in the cache), or read from a pack that Loupe indexed itself
// (`markPackVerified`). Indexing hashed every object of that pack, resolved through the same
// deltas and bases, and its `.idx` maps each id only to an entry that hashed to it; the pack then
// sits unchanged in Loupe's own directory, and opening it checks that it is the pack that index
// was written for. Hashing its objects again on every read would repeat that proof, not add one.
// Packs written by anyone else (a local repository's, from native git) are hashed on read, as are
// objects whose delta chain reaches a base outside the verified packs (a loose object).

import path from "node:path";
import { type ByteBudgetCache, createByteBudgetCache } from "./byte-budget-cache.ts";
import { applyDelta } from "./delta.ts";
import { CorruptObjectStoreError, type GitObject, gitObjectId } from "./git-object.ts";
import { readLooseObject } from "./loose-object.ts";
import { createOpenPacks, OFFSETS_PER_PACK, type OpenPack } from "./open-packs.ts";

export interface TooLarge {
  readonly tooLarge: number;
}

export interface ObjectDatabase {
  /** The object, or undefined when neither this store nor the fallback has it. */
  readObject(oid: string): Promise<GitObject | undefined>;
  /**
   * The object, unless it is larger than `maxSize`: then its size, found before inflating it (a
   * whole entry's header, a delta's result size), so bounded reads cost bounded work.
   */
  readObjectWithin(oid: string, maxSize: number): Promise<GitObject | TooLarge | undefined>;
  /**
   * Records that `objects/pack/<packName>` was indexed by Loupe (objects/index-pack.ts), which
   * hashed each of its objects: reading them needs no second hash.
   */
  markPackVerified(packName: string): void;
  /** Bytes of resolved objects the cache holds now (never more than `cacheBytes`). */
  readonly cachedBytes: number;
  /** Closes the pack files; reading again reopens them. */
  close(): void;
}

export interface ObjectDatabaseOptions {
  readonly gitdir: string;
  /** Bytes of resolved objects kept for reuse (delta bases, files read twice). */
  readonly cacheBytes?: number;
  /** Asked for what the store holds in a form this reader does not read. */
  readonly fallback?: (oid: string) => Promise<GitObject | undefined>;
}

export const DEFAULT_OBJECT_CACHE_BYTES = 32 * 1024 * 1024;
/** git itself caps delta chains at 50 by default; anything near this bound is damage or hostility. */
const MAX_CHAIN = 10_000;
const MAX_EXTERNAL_DEPTH = 64;

/** A resolved object, and what is known of its id. */
interface Resolved {
  readonly object: GitObject;
  /** Read wholly from verified packs: it is the object its pack's index names. */
  readonly trusted: boolean;
  /** The id its bytes were hashed to, once they were (see readChecked). */
  hashedAs?: string;
}

export function createObjectDatabase(options: ObjectDatabaseOptions): ObjectDatabase {
  const objectsDir = path.join(options.gitdir, "objects");
  const packs = createOpenPacks(path.join(objectsDir, "pack"));
  const cache: ByteBudgetCache<Resolved, number> = createByteBudgetCache(
    options.cacheBytes ?? DEFAULT_OBJECT_CACHE_BYTES,
  );
  const chains: ChainReader = { cache, readStored: (oid, depth, maxSize) => readStored(oid, depth, maxSize) };

  const readStored = (oid: string, depth: number, maxSize: number): Resolved | TooLarge | undefined => {
    if (depth > MAX_EXTERNAL_DEPTH)
      throw new CorruptObjectStoreError("delta bases refer to each other in a loop");
    let found = packs.locate(oid);
    if (found === undefined) {
      const loose = readLooseObject(objectsDir, oid, maxSize);
      if (loose !== undefined) return "tooLarge" in loose ? loose : { object: loose, trusted: false };
      // A pack written since the last scan (a fetch that deepened) is found on a second look.
      packs.rescan();
      found = packs.locate(oid);
    }
    return found === undefined ? undefined : resolveAt(chains, found.pack, found.offset, depth, maxSize);
  };

  const readChecked = async (oid: string, maxSize: number): Promise<GitObject | TooLarge | undefined> => {
    const stored = readStored(oid, 0, maxSize);
    if (stored !== undefined && "tooLarge" in stored) return stored;
    const resolved = stored ?? (await fromFallback(oid));
    if (resolved === undefined) return undefined;
    const { object } = resolved;
    // Proven once, by Loupe's own indexing or by a hash remembered with the cached bytes.
    if (!resolved.trusted && resolved.hashedAs !== oid) {
      if (gitObjectId(object.type, object.bytes) !== oid) {
        throw new CorruptObjectStoreError(`object ${oid} does not hash to its id`);
      }
      resolved.hashedAs = oid;
    }
    return object.bytes.byteLength > maxSize ? { tooLarge: object.bytes.byteLength } : object;
  };

  const fromFallback = async (oid: string): Promise<Resolved | undefined> => {
    const object = await options.fallback?.(oid);
    return object === undefined ? undefined : { object, trusted: false };
  };

  return {
    readObject: (oid) => readChecked(oid, Number.POSITIVE_INFINITY) as Promise<GitObject | undefined>,
    readObjectWithin: readChecked,
    markPackVerified: (packName) => packs.markVerified(packName),
    get cachedBytes() {
      return cache.bytesHeld;
    },
    close: () => packs.close(),
  };
}

/** What resolving a delta chain needs of its store: the cache, and objects outside the pack. */
interface ChainReader {
  readonly cache: ByteBudgetCache<Resolved, number>;
  readonly readStored: (oid: string, depth: number, maxSize: number) => Resolved | TooLarge | undefined;
}

/**
 * The object at `offset` of `pack`. With `maxSize`, the top entry is checked before it is
 * inflated: a larger object (by its header, or its delta's result size) comes back as TooLarge.
 * Bases are read unbounded, being needed for any result at all.
 */
function resolveAt(
  { cache, readStored }: ChainReader,
  pack: OpenPack,
  offset: number,
  depth: number,
  maxSize: number,
): Resolved | TooLarge {
  const deltas: { key: number; delta: Uint8Array }[] = [];
  let at = offset;
  let base: Resolved | undefined;
  while (base === undefined) {
    // Offsets past the key space are not cached (a pack over 1 TiB).
    const key = at < OFFSETS_PER_PACK ? pack.keyBase + at : -1;
    base = cache.get(key);
    if (base !== undefined) break;
    // Only the top entry is bounded: bases are needed for any result at all.
    const entry = pack.file.readEntry(at, deltas.length === 0 ? maxSize : undefined);
    if (entry.kind === "too_large") return { tooLarge: entry.size };
    if (entry.kind === "whole") {
      base = { object: { type: entry.type, bytes: entry.bytes }, trusted: pack.verified };
      if (key >= 0) cache.set(key, base, entry.bytes.byteLength);
      break;
    }
    deltas.push({ key, delta: entry.delta });
    if (deltas.length > MAX_CHAIN) throw new CorruptObjectStoreError(`delta chain longer than ${MAX_CHAIN}`);
    if (entry.kind === "ofs_delta") {
      at = entry.baseOffset;
      continue;
    }
    const local = pack.file.index.offsetOf(entry.baseOid);
    if (local !== undefined) {
      at = local;
      continue;
    }
    // A thin pack's base lives elsewhere in the store (the pack fetched before it).
    const external = readStored(entry.baseOid, depth + 1, Number.POSITIVE_INFINITY);
    if (external === undefined) {
      throw new CorruptObjectStoreError(`the delta base ${entry.baseOid} is missing from the store`);
    }
    base = external as Resolved;
  }
  const trusted = base.trusted && pack.verified;
  for (let step = deltas.length - 1; step >= 0; step -= 1) {
    const { key, delta } = deltas[step]!;
    const bytes = applyDelta(base.object.bytes, delta);
    base = { object: { type: base.object.type, bytes }, trusted };
    if (key >= 0) cache.set(key, base, bytes.byteLength);
  }
  return base.object.bytes.byteLength > maxSize ? { tooLarge: base.object.bytes.byteLength } : base;
}
