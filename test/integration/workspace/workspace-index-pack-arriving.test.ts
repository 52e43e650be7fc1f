// A pack indexed while it arrives (startPackIndex): the fetch writes the pack to a file piece by
// piece as the network cuts it, and the entries are scanned as the bytes that hold them come in.
// Whatever the pieces, the `.idx` must be git's own, and damage must fail as it does when the
// whole pack is indexed at the end (workspace-index-pack.test.ts).

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { CorruptObjectStoreError, type GitObject } from "../../../src/workspace/objects/git-object.ts";
import { indexPack, startPackIndex } from "../../../src/workspace/objects/index-pack.ts";
import { bufferPackSource, filePackSource } from "../../../src/workspace/objects/pack-source.ts";
import { createRepo, type FixtureRepo, gitEnvironment } from "../../support/git-fixture.ts";
import { seededRandom } from "../../support/seeded-random.ts";

const repos: FixtureRepo[] = [];
let packed: { pack: Buffer; idx: Buffer; dir: string };
beforeAll(() => {
  packed = packedHistory(); // read only: every test indexes the same pack its own way
});
afterAll(() => {
  for (const repo of repos.splice(0)) repo.dispose();
});

const noExternal = async (): Promise<GitObject | undefined> => undefined;

/** Lines of source-like text, so that entries deflate as code does. */
function sourceText(lines: number, seed: number): string {
  const random = seededRandom(seed);
  const words = ["const", "value", "return", "function", "item", "index", "=>", "{", "}", "await", "if"];
  const out: string[] = [];
  for (let line = 0; line < lines; line += 1) {
    const length = 2 + Math.floor(random() * 8);
    const line = Array.from({ length }, () => words[Math.floor(random() * words.length)]);
    out.push(`${line.join(" ")} ${Math.floor(random() * 100_000)};`);
  }
  return `${out.join("\n")}\n`;
}

/**
 * A history with large and small files changed over several commits (deltas on deltas, entries
 * of a few bytes and of hundreds of kilobytes), as `git pack-objects` packs it, with git's .idx.
 */
function packedHistory(): { pack: Buffer; idx: Buffer; dir: string } {
  const repo = createRepo();
  repos.push(repo);
  for (let commit = 0; commit < 6; commit += 1) {
    repo.write("big.ts", sourceText(12_000 + commit * 50, 1) + sourceText(commit * 40, 100 + commit));
    for (let file = 0; file < 8; file += 1)
      repo.write(`middle/${file}.ts`, sourceText(800, 2 + commit * 8 + file));
    for (let file = 0; file < 20; file += 1)
      repo.write(`small/${file}.ts`, `export const n = ${file * commit};\n`);
    repo.commit(`commit ${commit}`);
  }
  const dir = fs.mkdtempSync(path.join(repo.home, "pack-"));
  const name = execFileSync("git", ["pack-objects", "--revs", "--delta-base-offset", path.join(dir, "p")], {
    cwd: repo.dir,
    env: gitEnvironment(repo.home),
    input: "HEAD\n",
  })
    .toString()
    .trim();
  return {
    pack: fs.readFileSync(path.join(dir, `p-${name}.pack`)),
    idx: fs.readFileSync(path.join(dir, `p-${name}.idx`)),
    dir,
  };
}

/** Writes `pack` to a file in `pieces`, advancing after each; answers the index and the scan's progress. */
async function indexArriving(pack: Buffer, dir: string, pieces: Iterable<number>) {
  const file = path.join(dir, "arriving.pack");
  fs.rmSync(file, { force: true });
  const writer = fs.openSync(file, "wx");
  const reader = fs.openSync(file, "r");
  try {
    const indexing = startPackIndex({ readExternal: noExternal });
    const source = filePackSource(reader);
    let written = 0;
    let scannedBeforeEnd = 0;
    for (const piece of pieces) {
      const bytes = pack.subarray(written, written + piece);
      if (bytes.byteLength === 0) break;
      fs.writeSync(writer, bytes);
      written += bytes.byteLength;
      scannedBeforeEnd = indexing.advance(source, written);
    }
    expect(written).toBe(pack.byteLength);
    const indexed = await indexing.finish(filePackSource(reader));
    return { indexed, scannedBeforeEnd };
  } finally {
    fs.closeSync(writer);
    fs.closeSync(reader);
  }
}

function* evenPieces(size: number): Generator<number> {
  for (;;) yield size;
}

function* randomPieces(seed: number, max: number): Generator<number> {
  const random = seededRandom(seed);
  for (;;) yield 1 + Math.floor(random() * max);
}

describe("a pack indexed as it arrives", () => {
  it.each([
    ["pieces of 7 bytes", evenPieces(7)],
    ["pieces of 1,400 bytes (a TCP segment)", evenPieces(1400)],
    ["pieces of 64 KiB", evenPieces(64 * 1024)],
    ["random pieces of up to 20 KiB", randomPieces(3, 20 * 1024)],
  ])("writes git's own .idx, byte for byte, from %s", async (_what, pieces) => {
    const { pack, idx, dir } = packed;
    const { indexed, scannedBeforeEnd } = await indexArriving(pack, dir, pieces);
    expect(indexed.index.equals(idx)).toBe(true);
    expect(indexed.objectCount).toBe(pack.readUInt32BE(8));
    // Most entries were scanned while the pack was still arriving, not at the end.
    expect(scannedBeforeEnd).toBeGreaterThan(indexed.objectCount / 2);
  });

  it("fails on damage as indexing the whole pack does", async () => {
    const { pack, dir } = packed;
    const at = Math.floor(pack.byteLength / 2);
    const damaged = Buffer.concat([
      pack.subarray(0, at),
      Buffer.from([pack[at]! ^ 0xff]),
      pack.subarray(at + 1),
    ]);
    const whole = await indexPack({ source: bufferPackSource(damaged), readExternal: noExternal }).catch(
      (error: unknown) => error as Error,
    );
    const arriving = await indexArriving(damaged, dir, evenPieces(1400)).catch(
      (error: unknown) => error as Error,
    );
    expect(whole).toBeInstanceOf(CorruptObjectStoreError);
    expect(arriving).toBeInstanceOf(CorruptObjectStoreError);
    expect((arriving as Error).message).toBe((whole as Error).message);
  });
});
