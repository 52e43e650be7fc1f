// What a server process costs to start here against another checkout of Loupe (the commit before a
// change, say, as `git worktree add /tmp/before <commit>` with its dependencies installed or
// linked): `node src/server.ts` from each, alternating, ROUNDS times; each start's CPU (all its
// threads) and peak RSS once /healthz answers and its repository workers have loaded
// (server-start-process.ts). The single process: no REDIS_URL, no dashboard, no webhook proxy.
//   node_modules/.bin/node bench/server-start-vs-checkout.ts OTHER_CHECKOUT [ROUNDS]

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { median, ratioLine, serverEnv, startOnce } from "./server-start-process.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const OTHER = path.resolve(process.argv[2] ?? "");
const ROUNDS = Number(process.argv[3] ?? 7);
if (!fs.existsSync(path.join(OTHER, "src", "server.ts"))) {
  process.stderr.write("usage: bench/server-start-vs-checkout.ts OTHER_CHECKOUT [ROUNDS]\n");
  process.exit(2);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-start-"));
try {
  const env = serverEnv(path.join(tmp, "compile-cache"));
  const start = (root: string) => startOnce(root, path.join(root, "src", "server.ts"), env);
  await start(OTHER); // warm-up: the compile cache and the page cache, both ways
  await start(ROOT);
  const other = { cpu: [] as number[], rss: [] as number[] };
  const here = { cpu: [] as number[], rss: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [root, figures] of [
      [OTHER, other],
      [ROOT, here],
    ] as const) {
      const cost = await start(root);
      figures.cpu.push(cost.cpuMs);
      figures.rss.push(cost.peakRssMb);
    }
    process.stderr.write(
      `round ${round + 1}: other ${other.cpu.at(-1)} ms ${other.rss.at(-1)!.toFixed(0)} MB, ` +
        `here ${here.cpu.at(-1)} ms ${here.rss.at(-1)!.toFixed(0)} MB\n`,
    );
  }
  process.stdout.write(
    `server start (medians of ${ROUNDS}): other ${median(other.cpu)} ms of CPU, ${median(other.rss).toFixed(0)} MB peak; ` +
      `here ${median(here.cpu)} ms, ${median(here.rss).toFixed(0)} MB; ` +
      `here / other: CPU ${ratioLine(other.cpu, here.cpu)}, peak RSS ${ratioLine(other.rss, here.rss)}\n`,
  );
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
