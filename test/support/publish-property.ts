// Generated model text through the given renderers, judged by micromark (GFM) and by cmark-gfm
// (GitHub's parser) on the rendered HTML: no mention, no reference, no foreign link or image, no
// raw HTML, exactly Loupe's markers, no invisible character, within GitHub's limits. cmark-gfm
// parses a batch of cases per process (a process per case would cost more than the rest of the
// test). A failure names the renderer, the seed and the case, and how to replay its run.

import {
  allProblems,
  cmarkJudges,
  cmarkProblems,
  micromarkOracle,
  PUBLISHED_INVISIBLE,
} from "./gfm-oracle.ts";
import { randomFields } from "./hostile-markdown.ts";
import { PROPERTY_RUNS, REPLAY } from "./property-runs.ts";
import type { ModelFields, PublishRenderer, Rendered } from "./publish-renderers.ts";
import { seededRandom } from "./seeded-random.ts";

/** Cases per renderer: LOUPE_PROPERTY_RUNS (property-runs.ts), 1,000 by default, 10,000 deep. */
export const PROPERTY_CASES = PROPERTY_RUNS;
/** Cases per cmark-gfm process. */
const BATCH = 500;
/**
 * With cmark-gfm judging every case, micromark judges one case in this many: it costs ~3.5 ms a
 * case against cmark-gfm's ~0.8 ms (measured over 1,000 cases of a check-run renderer), and was
 * two minutes of the suite's wall time for a second opinion on what GitHub's parser already
 * judged. cmark-gfm is required (a missing one fails the suite, see cmarkJudges).
 */
const MICROMARK_STRIDE = 4;

cmarkJudges();

/** The first failing case, or null when all of them pass. */
export function firstFailure(renderer: PublishRenderer, seed: number, cases = PROPERTY_CASES): string | null {
  const random = seededRandom(seed);
  for (let first = 0; first < cases; first += BATCH) {
    const batch: { fields: ModelFields; rendered: Rendered }[] = [];
    for (let i = first; i < Math.min(cases, first + BATCH); i++) {
      const fields = randomFields(random);
      batch.push({ fields, rendered: renderer.render(fields) });
    }
    const byCmark = cmarkProblems(batch.map((c) => c.rendered));
    for (let k = 0; k < batch.length; k++) {
      const { fields, rendered } = batch[k]!;
      const { markdown, expectation, limit } = rendered;
      const byMicromark =
        (first + k) % MICROMARK_STRIDE === 0 ? allProblems(markdown, micromarkOracle, expectation) : [];
      const problems = [...byMicromark, ...(byCmark[k] ?? [])];
      if (markdown.length > limit) problems.push(`length ${markdown.length} over ${limit}`);
      if (!markdown.isWellFormed()) problems.push("a lone surrogate");
      if (PUBLISHED_INVISIBLE.test(markdown)) problems.push("an invisible character");
      if (problems.length > 0)
        return `seed ${seed}, case ${first + k}: ${[...new Set(problems)].join("; ")} (replay: ${REPLAY})\n${JSON.stringify(fields)}\n${markdown}`;
    }
  }
  return null;
}
