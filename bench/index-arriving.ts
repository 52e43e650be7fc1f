// Indexing a received pack at the end against indexing it as it arrives (startPackIndex): the
// pack is written to a file in PIECE-byte pieces (a fetch's pieces average about 10 KB), with
// `advance` after each, then `finish`; the same pack is also indexed whole. Both indexes must be
// the same bytes. Prints the median CPU over ROUNDS rounds of the whole indexing, of the
// scanning while the pack arrives, and of what is left after its last byte (what a fetch waits
// for once the server is done).
//   node_modules/.bin/node bench/index-arriving.ts PACK_FILE [ROUNDS] [PIECE]
// A pack as a fetch gets it: `git init --bare r && git -C r fetch --depth 1 URL HEAD MERGE_BASE`.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { indexPack, startPackIndex } from "../src/workspace/objects/index-pack.ts";
import { filePackSource } from "../src/workspace/objects/pack-source.ts";

const [packFile, roundsArg, pieceArg] = process.argv.slice(2);
if (packFile === undefined || !fs.existsSync(packFile)) {
  process.stderr.write("usage: bench/index-arriving.ts PACK_FILE [ROUNDS] [PIECE]\n");
  process.exit(2);
}
const ROUNDS = Number(roundsArg ?? 9);
const PIECE = Number(pieceArg ?? 10_000);
const pack = fs.readFileSync(packFile);
const noExternal = async () => undefined;
const cpuSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-index-arriving-"));

const whole: number[] = [];
const during: number[] = [];
const after: number[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const fd = fs.openSync(packFile, "r");
    let start = process.cpuUsage();
    const atTheEnd = await indexPack({ source: filePackSource(fd), readExternal: noExternal });
    whole.push(cpuSince(start));
    fs.closeSync(fd);

    const file = path.join(dir, `arriving-${round}.pack`);
    const writer = fs.openSync(file, "w");
    const reader = fs.openSync(file, "r");
    const indexing = startPackIndex({ readExternal: noExternal });
    const source = filePackSource(reader);
    start = process.cpuUsage();
    for (let at = 0; at < pack.byteLength; at += PIECE) {
      const piece = pack.subarray(at, at + PIECE);
      fs.writeSync(writer, piece);
      indexing.advance(source, at + piece.byteLength);
    }
    during.push(cpuSince(start));
    start = process.cpuUsage();
    const asItArrived = await indexing.finish(filePackSource(reader));
    after.push(cpuSince(start));
    fs.closeSync(writer);
    fs.closeSync(reader);
    fs.rmSync(file);
    if (!atTheEnd.index.equals(asItArrived.index)) throw new Error("the two indexes differ");
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(
  `${pack.byteLength} bytes in ${PIECE}-byte pieces, ${ROUNDS} rounds: indexed at the end ${median(whole).toFixed(0)} ms; ` +
    `as it arrives ${median(during).toFixed(0)} ms while it comes + ${median(after).toFixed(0)} ms after its last byte\n`,
);
