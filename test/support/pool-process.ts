// A Loupe process holding a warmed repository worker pool until it is killed: it prints the
// warm-up's outcome as one JSON line. Tests kill it (SIGKILL, as the OOM killer does) to leave
// what such a process leaves. A script of its own rather than `node -e`: worker threads take the
// process's exec arguments, and `--input-type=module -e` makes them fail to start.
//   node test/support/pool-process.ts '<WorkerPoolOptions as JSON, entry as its URL>'

import { createWorkerPool } from "../../src/isolation/worker-pool.ts";

const options = JSON.parse(process.argv[2] ?? "{}");
setInterval(() => {}, 60_000); // the pool's workers do not keep a process alive
const pool = createWorkerPool({ ...options, entry: new URL(options.entry) });
process.stdout.write(`${JSON.stringify(await pool.warm())}\n`);
