// Generated model text through the given renderers, judged by micromark (GFM) on the rendered
// HTML: no mention, no reference, no foreign link or image, no raw HTML, exactly Loupe's markers,
// within GitHub's limits. A failure names the renderer, the seed and the case; it replays.

import { allProblems, micromarkOracle } from "./gfm-oracle.ts";
import { randomFields } from "./hostile-markdown.ts";
import type { PublishRenderer } from "./publish-renderers.ts";
import { seededRandom } from "./seeded-random.ts";

export const PROPERTY_CASES = 10_000;

/** The first failing case, or null when all of them pass. */
export function firstFailure(renderer: PublishRenderer, seed: number, cases = PROPERTY_CASES): string | null {
  const random = seededRandom(seed);
  for (let i = 0; i < cases; i++) {
    const fields = randomFields(random);
    const { markdown, expectation, limit } = renderer.render(fields);
    const problems = allProblems(markdown, micromarkOracle, expectation);
    if (markdown.length > limit) problems.push(`length ${markdown.length} over ${limit}`);
    if (!markdown.isWellFormed()) problems.push("a lone surrogate");
    if (problems.length > 0)
      return `seed ${seed}, case ${i}: ${problems.join("; ")}\n${JSON.stringify(fields)}\n${markdown}`;
  }
  return null;
}
