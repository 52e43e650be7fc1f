// Indexes one pack file with Loupe's indexer and writes the .idx (for bench/fetch-large-vs-native.sh).
// usage: node bench/index-pack.ts <pack> <idx-out>
import fs from "node:fs";
import { indexPack } from "../src/workspace/objects/index-pack.ts";
import { filePackSource } from "../src/workspace/objects/pack-source.ts";

const [packPath, idxPath] = process.argv.slice(2);
if (packPath === undefined || idxPath === undefined) {
  process.stderr.write("usage: node bench/index-pack.ts <pack> <idx-out>\n");
  process.exit(2);
}
const fd = fs.openSync(packPath, "r");
try {
  const indexed = await indexPack({ source: filePackSource(fd), readExternal: async () => undefined });
  fs.writeFileSync(idxPath, indexed.index);
  process.stdout.write(`${JSON.stringify({ objects: indexed.objectCount, checksum: indexed.checksum })}\n`);
} finally {
  fs.closeSync(fd);
}
