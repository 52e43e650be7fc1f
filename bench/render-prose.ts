// Model prose rendered as Loupe publishes it (parsed, rewritten, serialized), at growing lengths:
// a paragraph of links, the shape that once made serializing quadratic. Prints one JSON line per
// length: the repetitions, the prose's characters and the median CPU time of three renders, in ms.
// Compare the code before and after by running this on each (git stash), side by side.
// usage: node bench/render-prose.ts [REPETITIONS ...]   (default: 1000 2000 4000 8000)
import { serializeBlocks } from "../src/review/markdown-serialize.ts";
import { modelBlocks } from "../src/review/model-markdown.ts";

const REPOSITORY = { owner: "acme", repo: "widgets", host: "github.com" };
const UNIT =
  "see [a.ts](https://github.com/acme/widgets/blob/main/a.ts) and [x](https://evil.example/p) `c` or ";
const lengths = process.argv.slice(2).map(Number);
serializeBlocks(modelBlocks(UNIT.repeat(200), REPOSITORY)); // the code optimised first
for (const units of lengths.length > 0 ? lengths : [1000, 2000, 4000, 8000]) {
  const prose = UNIT.repeat(units);
  const times: number[] = [];
  for (let run = 0; run < 3; run++) {
    const before = process.cpuUsage();
    serializeBlocks(modelBlocks(prose, REPOSITORY));
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  const cpuMs = Math.round(times.sort((a, b) => a - b)[1]!);
  process.stdout.write(`${JSON.stringify({ units, chars: prose.length, cpuMs })}\n`);
}
