// The packs of one object store that the reader has open, found by scanning objects/pack/ and
// scanned again when an id is not in any of them (a fetch that deepened wrote a new pack since).
// Each open pack owns a slice of the object cache's key space, so offsets of different packs
// never share a key.

import fs from "node:fs";
import path from "node:path";
import { openPackFile, type PackFile } from "./pack-file.ts";

export interface OpenPack {
  readonly name: string;
  readonly file: PackFile;
  /** This pack's keys in the object cache are keyBase + offset. */
  readonly keyBase: number;
  /** Indexed by Loupe itself: its objects need no second hash (see object-database.ts). */
  readonly verified: boolean;
}

export interface OpenPacks {
  /** The pack holding `oid` and the entry's offset there, among the packs open now. */
  locate(oid: string): { readonly pack: OpenPack; readonly offset: number } | undefined;
  /** Opens packs written since the last scan. */
  rescan(): void;
  markVerified(packName: string): void;
  close(): void;
}

/** Offsets per pack in the cache's key space: packs up to 2^40 bytes (1 TiB). */
export const OFFSETS_PER_PACK = 2 ** 40;

export function createOpenPacks(packDir: string): OpenPacks {
  let packs: OpenPack[] | undefined;
  let opened = 0;
  // Packs this reader could not open (an unknown index version): left to the fallback.
  const skipped = new Set<string>();
  const verifiedPacks = new Set<string>();

  const scan = (): OpenPack[] => {
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
      else {
        const keyBase = opened * OFFSETS_PER_PACK;
        opened += 1;
        found.push({ name, file, keyBase, verified: verifiedPacks.has(name) });
      }
    }
    packs = found;
    return found;
  };

  return {
    locate(oid) {
      for (const pack of packs ?? scan()) {
        const offset = pack.file.index.offsetOf(oid);
        if (offset !== undefined) return { pack, offset };
      }
      return undefined;
    },
    rescan: () => void scan(),
    markVerified(packName) {
      verifiedPacks.add(packName);
    },
    close() {
      for (const pack of packs ?? []) pack.file.close();
      packs = undefined;
    },
  };
}
