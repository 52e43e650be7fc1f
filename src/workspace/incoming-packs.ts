// The packs a fetch receives: streamed to `objects/pack/incoming-<n>.pack` as they arrive (the
// HTTP client diverts them, pack-diverter.ts), their entries scanned as the bytes come in, while
// the server is still sending, then, once isomorphic-git's fetch has returned, the rest indexed
// (objects/index-pack.ts) and installed as `pack-<checksum>.pack` + `.idx`,
// where both Loupe's object database and isomorphic-git find them. A thin pack's delta bases are
// read from what earlier fetches installed.

import fs from "node:fs";
import { open, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { LoupeError } from "../domain/errors.ts";
import { CorruptObjectStoreError } from "./objects/git-object.ts";
import { type IndexedPack, type PackIndexing, startPackIndex } from "./objects/index-pack.ts";
import type { ObjectDatabase } from "./objects/object-database.ts";
import { filePackSource } from "./objects/pack-source.ts";
import type { PackSink } from "./pack-diverter.ts";

export interface IncomingPacks {
  /** Opens the file the next received pack is written to. */
  receive(): Promise<PackSink>;
  /** Indexes and installs every pack received so far; `what` names the fetch in errors. */
  install(what: string): Promise<void>;
}

export function createIncomingPacks(options: {
  readonly gitdir: string;
  readonly database: ObjectDatabase;
}): IncomingPacks {
  const packDir = path.join(options.gitdir, "objects", "pack");
  const received: { readonly file: string; readonly indexing: PackIndexing }[] = [];
  let counter = 0;
  const readExternal = (oid: string) => options.database.readObject(oid);
  return {
    async receive() {
      const file = path.join(packDir, `incoming-${++counter}.pack`);
      const handle = await open(file, "wx");
      // What is written is read back (page cache) to be scanned: the pieces come as the network
      // cuts them, and an entry is often split across several.
      let readBack: number;
      try {
        readBack = fs.openSync(file, "r");
      } catch (error) {
        await handle.close();
        throw error;
      }
      const source = filePackSource(readBack);
      const indexing = startPackIndex({ readExternal });
      received.push({ file, indexing });
      let written = 0;
      return {
        async write(bytes) {
          for (let at = 0; at < bytes.byteLength; ) {
            const { bytesWritten } = await handle.write(bytes, at, bytes.byteLength - at);
            at += bytesWritten;
          }
          written += bytes.byteLength;
          indexing.advance(source, written);
        },
        async close() {
          indexing.endArrival(); // whether the pack came whole or the fetch failed
          fs.closeSync(readBack);
          await handle.close();
        },
      };
    },
    async install(what) {
      for (const { file, indexing } of received.splice(0)) {
        let indexed: IndexedPack;
        try {
          indexed = await finishFile(file, indexing);
        } catch (error) {
          await rm(file, { force: true });
          if (!(error instanceof CorruptObjectStoreError)) throw error;
          throw new LoupeError(
            "git_network_failed",
            `the git server sent a damaged pack for ${what}: ${error.message}`,
            {
              cause: error,
            },
          );
        }
        if (indexed.objectCount === 0) {
          await rm(file, { force: true }); // nothing new: git sends an empty pack
          continue;
        }
        const name = path.join(packDir, `pack-${indexed.checksum}`);
        // Indexing hashed every object of the pack: the database need not hash them again.
        options.database.markPackVerified(`pack-${indexed.checksum}.pack`);
        await rename(file, `${name}.pack`);
        await writeFile(`${name}.idx`, indexed.index);
      }
    },
  };
}

async function finishFile(file: string, indexing: PackIndexing): Promise<IndexedPack> {
  const fd = fs.openSync(file, "r");
  try {
    return await indexing.finish(filePackSource(fd));
  } finally {
    fs.closeSync(fd);
  }
}
