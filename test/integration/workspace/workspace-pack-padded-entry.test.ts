// A pack entry's read length comes from its declared size (pack-file.ts), not from the next
// entry's offset: this checks the one case where that bound is short — a valid zlib stream padded
// with empty stored blocks, far longer than its data — against the bytes git itself reads back.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, expect, it } from "@jest/globals";
import { openPackFile } from "../../../src/workspace/objects/pack-file.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-padded-pack-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function adler32(data: Buffer): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A zlib stream of `padding` empty stored blocks, then one final stored block holding `data`. */
function paddedStream(data: Buffer, padding: number): Buffer {
  const empty = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]);
  const last = Buffer.alloc(5);
  last[0] = 0x01;
  last.writeUInt16LE(data.byteLength, 1);
  last.writeUInt16LE(~data.byteLength & 0xffff, 3);
  const check = Buffer.alloc(4);
  check.writeUInt32BE(adler32(data));
  return Buffer.concat([Buffer.from([0x78, 0x01]), ...Array(padding).fill(empty), last, data, check]);
}

function blobEntry(data: Buffer, stream: Buffer): Buffer {
  if (data.byteLength >= 16) throw new Error("the test's entries have one-byte headers");
  return Buffer.concat([Buffer.from([(3 << 4) | data.byteLength]), stream]);
}

it("reads an entry whose zlib stream is much longer than its data, like git does", () => {
  const padded = Buffer.from("padded blob\n");
  const plain = Buffer.from("plain blob\n");
  const header = Buffer.alloc(12);
  header.write("PACK", 0, "latin1");
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(2, 8);
  const body = Buffer.concat([
    header,
    blobEntry(padded, paddedStream(padded, 10_000)),
    blobEntry(plain, zlib.deflateSync(plain)),
  ]);
  const pack = path.join(dir, "test.pack");
  fs.writeFileSync(pack, Buffer.concat([body, createHash("sha1").update(body).digest()]));
  execFileSync("git", ["index-pack", pack], { cwd: dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
  const file = openPackFile(pack, path.join(dir, "test.idx"), "test.pack")!;
  try {
    for (const data of [padded, plain]) {
      const oid = createHash("sha1").update(`blob ${data.byteLength}\0`).update(data).digest("hex");
      const offset = file.index.offsetOf(oid);
      expect(offset).toBeDefined();
      expect(file.readEntry(offset!)).toEqual({ kind: "whole", type: "blob", bytes: data });
    }
  } finally {
    file.close();
  }
});
