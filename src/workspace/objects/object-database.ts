// Reads git objects by id from a repository's object store: its packs (whole entries and delta
// chains, thin packs' external bases included) and loose objects, with a byte-bounded cache of
// resolved objects. It replaces isomorphic-git's reader on the hot path, which spends ~0.7 ms
// per blob in pure-JS inflate and pack parsing (bench/README.md, "Workspace fetch"); anything
// this reader does not understand (an old index version, say) goes to the injected fallback.
// Every object returned by id is hashed and compared with that id.

import fs from "node:fs";
import path from "node:path";
import { type ByteBudgetCache, createByteBudgetCache } from "./byte-budget-cache.ts";
import { applyDelta } from "./delta.ts";
import { CorruptObjectStoreError, type GitObject, gitObjectId } from "./git-object.ts";
import { readLooseObject } from "./loose-object.ts";
import { openPackFile, type PackFile } from "./pack-file.ts";

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

interface OpenPack {
  readonly name: string;
  readonly file: PackFile;
}

export function createObjectDatabase(options: ObjectDatabaseOptions): ObjectDatabase {
  const objectsDir = path.join(options.gitdir, "objects");
  const packDir = path.join(objectsDir, "pack");
  const cache: ByteBudgetCache<GitObject> = createByteBudgetCache(
    options.cacheBytes ?? DEFAULT_OBJECT_CACHE_BYTES,
  );
  let packs: OpenPack[] | undefined;
  // Packs this reader could not open (an unknown index version): left to the fallback.
  const skipped = new Set<string>();

  const scanPacks = (): OpenPack[] => {
    const known = new Set((packs ?? []).map((pack) => pack.name));
    const found = [...(packs ?? [])];
    let names: string[];
    try {
      names = fs.readdirSync(packDir);
    } catch {
      names = [];
    }
    for (const idx of names.filter((name) => name.endsWith(".idx")).sort()) {
      const name = `${idx.slice(0, -4)}.pack`;
      if (known.has(name) || skipped.has(name) || !names.includes(name)) continue;
      const file = openPackFile(path.join(packDir, name), path.join(packDir, idx), name);
      if (file === undefined) skipped.add(name);
      else found.push({ name, file });
    }
    packs = found;
    return found;
  };

  const locate = (oid: string): { pack: OpenPack; offset: number } | undefined => {
    for (const pack of packs ?? scanPacks()) {
      const offset = pack.file.index.offsetOf(oid);
      if (offset !== undefined) return { pack, offset };
    }
    return undefined;
  };

  // The object at `offset`. With `maxSize`, the top entry is checked before it is inflated: a
  // larger object (by its header, or its delta's result size) comes back as TooLarge. Bases are
  // read unbounded, being needed for any result at all.
  const resolveAt = (
    pack: OpenPack,
    offset: number,
    depth: number,
    maxSize: number,
  ): GitObject | TooLarge => {
    const deltas: { key: string; delta: Uint8Array }[] = [];
    let at = offset;
    let base: GitObject | undefined;
    while (base === undefined) {
      const key = `${pack.name}:${at}`;
      base = cache.get(key);
      if (base !== undefined) break;
      // Only the top entry is bounded: bases are needed for any result at all.
      const entry = pack.file.readEntry(at, deltas.length === 0 ? maxSize : undefined);
      if (entry.kind === "too_large") return { tooLarge: entry.size };
      if (entry.kind === "whole") {
        base = { type: entry.type, bytes: entry.bytes };
        cache.set(key, base, base.bytes.byteLength);
        break;
      }
      deltas.push({ key, delta: entry.delta });
      if (deltas.length > MAX_CHAIN)
        throw new CorruptObjectStoreError(`delta chain longer than ${MAX_CHAIN}`);
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
      base = external as GitObject;
    }
    for (let step = deltas.length - 1; step >= 0; step -= 1) {
      const { key, delta } = deltas[step]!;
      base = { type: base.type, bytes: applyDelta(base.bytes, delta) };
      cache.set(key, base, base.bytes.byteLength);
    }
    return base.bytes.byteLength > maxSize ? { tooLarge: base.bytes.byteLength } : base;
  };

  const readStored = (oid: string, depth: number, maxSize: number): GitObject | TooLarge | undefined => {
    if (depth > MAX_EXTERNAL_DEPTH)
      throw new CorruptObjectStoreError("delta bases refer to each other in a loop");
    let found = locate(oid);
    if (found === undefined) {
      const loose = readLooseObject(objectsDir, oid, maxSize);
      if (loose !== undefined) return loose;
      // A pack written since the last scan (a fetch that deepened) is found on a second look.
      scanPacks();
      found = locate(oid);
    }
    return found === undefined ? undefined : resolveAt(found.pack, found.offset, depth, maxSize);
  };

  const readChecked = async (oid: string, maxSize: number): Promise<GitObject | TooLarge | undefined> => {
    const object = readStored(oid, 0, maxSize) ?? (await options.fallback?.(oid));
    if (object === undefined || "tooLarge" in object) return object;
    if (gitObjectId(object.type, object.bytes) !== oid) {
      throw new CorruptObjectStoreError(`object ${oid} does not hash to its id`);
    }
    return object.bytes.byteLength > maxSize ? { tooLarge: object.bytes.byteLength } : object;
  };

  return {
    readObject: (oid) => readChecked(oid, Number.POSITIVE_INFINITY) as Promise<GitObject | undefined>,
    readObjectWithin: readChecked,
    close() {
      for (const pack of packs ?? []) pack.file.close();
      packs = undefined;
    },
  };
}
