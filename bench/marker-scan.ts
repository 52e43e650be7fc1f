// The marker scanner on the largest answers a provider may send (2 MiB, REVIEW_MAX_RESPONSE_BYTES'
// default), against the reference every answer pays anyway: JSON.parse of the response body.
// Run: node_modules/.bin/node bench/marker-scan.ts

import os from "node:os";
import { scanMarkers } from "../src/llm/transport/markers.ts";

const MIB = 1024 * 1024;
const LINE = '<<<LOUPE_CALL name="read_repository_file" id="c1">{"path":"src/a.ts","start_line":1}>>>';
const CASES: Record<string, string> = {
  "marker lines quoted in one fence": `\`\`\`\n${`${LINE}\n`.repeat(Math.floor((2 * MIB) / (LINE.length + 1)))}\`\`\``,
  "one line that starts like a marker": `<<<LOUPE_CALL name="a" id="b">${"x".repeat(2 * MIB)}`,
  "prose that mentions the prefix mid-line": "text <<<LOUPE_CALL mid-line ".repeat((2 * MIB) / 30),
};

const median = (work: () => unknown): number => {
  const times: number[] = [];
  for (let run = 0; run < 15; run++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[7] ?? 0;
};

console.log(`machine: ${os.cpus()[0]?.model ?? "unknown"} ×${os.cpus().length}, node ${process.version}`);
for (const [label, content] of Object.entries(CASES)) {
  const body = JSON.stringify({ choices: [{ message: { content } }] });
  const scan = median(() => scanMarkers(content));
  const parse = median(() => JSON.parse(body));
  console.log(
    `${label}: scan ${scan.toFixed(2)} ms, JSON.parse ${parse.toFixed(2)} ms, ratio ${(scan / parse).toFixed(2)}`,
  );
}
