// Findings whose model text is long prose, as the tests and benches of what rendering costs use:
// each field past its budget in a review body, so about eight such findings fill one.

import type { Finding } from "../../src/domain/finding.ts";
import type { PublishPlan } from "../../src/review/plan-types.ts";

/** A link into the repository (kept as a link), a foreign one (shown as code), a code span, words. */
export const PROSE_UNIT =
  "see [a.ts](https://github.com/acme/widgets/blob/main/a.ts) and [x](https://evil.example/p) `c` or ";

/** A plan whose `count` findings are all outside the diff, each with about 10,000 characters a field. */
export function longFindingsPlan(count: number): PublishPlan {
  const prose = PROSE_UNIT.repeat(100);
  const finding: Finding = {
    severity: "high",
    title: prose,
    explanation: prose,
    path: "a.ts",
    line: null,
    evidence: prose,
    recommendation: prose,
  };
  return {
    inline: [],
    outside: Array.from({ length: count }, (_, i) => ({
      finding,
      reason: "no_line" as const,
      fingerprint: i.toString(16).padStart(16, "0"),
    })),
    belowThreshold: [],
    duplicates: [],
    dismissed: [],
    raised: new Set(),
    placed: [],
  };
}
