// escapeText (src/review/markdown-escape.ts), the escaping every piece of model text goes through
// before GitHub or GitLab sees it, here against another checkout's (the commit before a change, as
// `git worktree add /tmp/before <commit>`), side by side in one process: the texts of the
// generated-input suites (test/support/hostile-markdown.ts, one seed) whole, and cut at links
// and brackets as the parser hands them over; ROUNDS alternating rounds, the median CPU of each.
//   node_modules/.bin/node bench/escape-text-vs-checkout.ts OTHER_CHECKOUT [ROUNDS]

import fs from "node:fs";
import path from "node:path";
import { escapeText } from "../src/review/markdown-escape.ts";
import { randomFields } from "../test/support/hostile-markdown.ts";
import { seededRandom } from "../test/support/seeded-random.ts";

const OTHER = path.resolve(process.argv[2] ?? "");
const ROUNDS = Number(process.argv[3] ?? 9);
const otherModule = path.join(OTHER, "src", "review", "markdown-escape.ts");
if (!fs.existsSync(otherModule)) {
  process.stderr.write("usage: bench/escape-text-vs-checkout.ts OTHER_CHECKOUT [ROUNDS]\n");
  process.exit(2);
}
const { escapeText: otherEscapeText } = (await import(otherModule)) as { escapeText: typeof escapeText };

const random = seededRandom(5);
const fields: string[] = [];
for (let i = 0; i < 3000; i++) fields.push(...Object.values(randomFields(random)));
const pieces = fields.flatMap((text) => text.split(/(?=\[)|\]/));

function cpuMs(escapeWith: (text: string) => string, texts: readonly string[]): number {
  const before = process.cpuUsage();
  for (const text of texts) escapeWith(text);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const [name, texts] of [
  ["whole fields", fields],
  ["pieces", pieces],
] as const) {
  for (const text of texts.slice(0, 2000))
    if (escapeText(text) !== otherEscapeText(text))
      throw new Error(`the two differ on ${JSON.stringify(text)}`);
  const here: number[] = [];
  const other: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    other.push(cpuMs(otherEscapeText, texts));
    here.push(cpuMs(escapeText, texts));
  }
  const ratio = median(here) / median(other);
  process.stdout.write(
    `${name} (${texts.length} texts): other ${median(other).toFixed(0)} ms, here ${median(here).toFixed(0)} ms, here / other ${ratio.toFixed(2)}\n`,
  );
}
