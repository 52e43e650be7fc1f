// escapeText (src/review/markdown-escape.ts), the escaping every piece of model text goes through
// before GitHub or GitLab sees it, here against another checkout's (the commit before a change, as
// `git worktree add /tmp/before <commit>`), side by side in one process: the texts of the
// generated-input suites (test/support/hostile-markdown.ts, one seed) whole, and cut at links
// and brackets as the parser hands them over; ROUNDS alternating rounds, the median CPU of each.
//   node_modules/.bin/node bench/escape-text-vs-checkout.ts OTHER_CHECKOUT [ROUNDS]

import { escapeText } from "../src/review/markdown-escape.ts";
import { randomFields } from "../test/support/hostile-markdown.ts";
import { seededRandom } from "../test/support/seeded-random.ts";
import { importFromCheckout, sideBySide } from "./side-by-side.ts";

const { escapeText: otherEscapeText } = await importFromCheckout<{ escapeText: typeof escapeText }>(
  process.argv[2],
  "src/review/markdown-escape.ts",
  "bench/escape-text-vs-checkout.ts OTHER_CHECKOUT [ROUNDS]",
);
const ROUNDS = Number(process.argv[3] ?? 9);

const random = seededRandom(5);
const fields: string[] = [];
for (let i = 0; i < 3000; i++) fields.push(...Object.values(randomFields(random)));
const pieces = fields.flatMap((text) => text.split(/(?=\[)|\]/));

for (const [name, texts] of [
  ["whole fields", fields],
  ["pieces", pieces],
] as const) {
  for (const text of texts.slice(0, 2000))
    if (escapeText(text) !== otherEscapeText(text))
      throw new Error(`the two differ on ${JSON.stringify(text)}`);
  const escapeAll = (escapeWith: typeof escapeText) => () => {
    for (const text of texts) escapeWith(text);
  };
  sideBySide(`${name} (${texts.length} texts)`, ROUNDS, escapeAll(otherEscapeText), escapeAll(escapeText));
}
