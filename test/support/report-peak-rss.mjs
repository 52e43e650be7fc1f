// Preloaded into a child Node process (NODE_OPTIONS=--import=<this file>) by tests that bound its
// memory: on exit it writes the process's peak resident set size, in KiB (getrusage's ru_maxrss),
// to the file PEAK_RSS_FILE names.

import fs from "node:fs";

const file = process.env.PEAK_RSS_FILE;
if (file !== undefined && file !== "") {
  process.on("exit", () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
}
