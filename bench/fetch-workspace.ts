// One Loupe fetch, as the App does it: head + merge-base at depth 1 into a temporary store, both
// snapshots read (ready to serve tools). With --read-all, also reads every blob of the head tree
// (what a whole-tree search costs). Prints one JSON line of figures; removes the workspace.
// With --verify, also checks that every blob of both trees hashes to its id (exit 1 if not).
// With --warm, the fetch measured is the process's second (the first is done and disposed of
// before): the App fetches in a repository worker that is already running, so this is the cost a
// review meets there, without Node's start and the first load of the code; the JSON line then
// also has the fetch's own CPU time (cpuMs).
// usage: node bench/fetch-workspace.ts <url> <head-sha> <merge-base-sha> [--read-all] [--verify] [--tmp DIR]
//        [--max-bytes N] (REVIEW_MAX_FETCH_BYTES for this fetch) [--warm]
import { createHash } from "node:crypto";
import { fetchWorkspace } from "../src/workspace/fetch.ts";

const [url, headSha, mergeBaseSha, ...flags] = process.argv.slice(2);
if (url === undefined || headSha === undefined || mergeBaseSha === undefined) {
  process.stderr.write(
    "usage: node bench/fetch-workspace.ts <url> <head> <merge-base> [--read-all] [--tmp DIR]\n",
  );
  process.exit(2);
}
const tmpIndex = flags.indexOf("--tmp");
const maxBytesIndex = flags.indexOf("--max-bytes");
let requests = 0;
const fetchOnce = () =>
  fetchWorkspace({
    url,
    headSha,
    mergeBaseSha,
    tmpRoot: tmpIndex === -1 ? undefined : flags[tmpIndex + 1],
    maxBytes: maxBytesIndex === -1 ? undefined : Number(flags[maxBytesIndex + 1]),
    onRequest: () => {
      requests += 1;
    },
  });
if (flags.includes("--warm")) {
  await (await fetchOnce()).dispose();
  requests = 0;
}
const started = performance.now();
const cpuBefore = process.cpuUsage();
const workspace = await fetchOnce();
const ready = performance.now();
const cpu = process.cpuUsage(cpuBefore);
let bytes = 0;
let blobs = 0;
if (flags.includes("--read-all")) {
  for (const entry of workspace.head.entries) {
    if (entry.mode === "submodule") continue;
    bytes += (await workspace.objects.readBlob(entry.oid)).byteLength;
    blobs += 1;
  }
}
const done = performance.now();
let corrupt = 0;
if (flags.includes("--verify")) {
  for (const entry of [...workspace.head.entries, ...workspace.mergeBase.entries]) {
    if (entry.mode === "submodule") continue;
    const blob = await workspace.objects.readBlob(entry.oid);
    const oid = createHash("sha1").update(`blob ${blob.byteLength}\0`).update(blob).digest("hex");
    if (oid !== entry.oid) corrupt += 1;
  }
  if (corrupt > 0) process.exitCode = 1;
}
await workspace.dispose();
const memory = process.memoryUsage();
process.stdout.write(
  `${JSON.stringify({
    files: workspace.head.entries.length,
    requests,
    readyMs: Math.round(ready - started),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    readAllMs: Math.round(done - ready),
    blobs,
    bytes,
    corrupt,
    heapUsedMB: Math.round(memory.heapUsed / 2 ** 20),
  })}\n`,
);
