import fs from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { roundFigure, roundFigures } from "../../../src/eval/report-figures.ts";
import { reportTable } from "../../../src/eval/report-table.ts";
import type { VariantReport } from "../../../src/eval/scores.ts";

const at = (estimate: number, low = estimate, high = estimate) => ({ estimate, low, high });

function variant(precision: number, dollars: number | null): VariantReport {
  return {
    pulls: 50,
    runs: 3,
    counts: { tp: 40, fp: 20, fn: 60 },
    precision: at(precision, precision - 0.1, precision + 0.1),
    recall: at(0.4, 0.31, 0.49),
    f1: at(0.5, 0.42, 0.58),
    findings_per_pull: at(1.2),
    tokens_per_pull: at(123456.7),
    dollars_per_pull: dollars === null ? null : at(dollars),
    seconds_per_pull: at(95),
  };
}

const comparison = {
  a: "verify-on",
  b: "verify-off",
  golden_set: "0123456789ab",
  pulls: 50,
  per_pull: [],
  precision_difference: at(0.12, 0.03, 0.2),
  recall_difference: at(-0.02, -0.09, 0.05),
  f1_difference: at(0.05, 0, 0.1),
  mean_f1_difference: at(-0.1, -0.2, -0.01),
};

describe("loupe eval report's table", () => {
  it("gives a row a variant, the golden set beside the scores, and marks a difference whose interval holds 0", () => {
    const text = reportTable({
      variants: {
        "verify-on": { golden_set: "0123456789ab", ...variant(0.6666, 0.0123) },
        "verify-off": { golden_set: "0123456789ab", ...variant(0.5, 1.5) },
        old: { golden_set: null, ...variant(0.5, null) },
      },
      comparison,
    });
    expect(text).toBe(
      [
        "variant     golden set    PRs  runs  precision          recall             F1                 tokens/PR     $/PR  min/PR",
        "verify-on   0123456789ab   50     3  0.67 [0.57, 0.77]  0.40 [0.31, 0.49]  0.50 [0.42, 0.58]    123,457   $0.012     1.6",
        "verify-off  0123456789ab   50     3  0.50 [0.40, 0.60]  0.40 [0.31, 0.49]  0.50 [0.42, 0.58]    123,457    $1.50     1.6",
        "old         unknown        50     3  0.50 [0.40, 0.60]  0.40 [0.31, 0.49]  0.50 [0.42, 0.58]    123,457  unknown     1.6",
        "",
        "Scores are estimates [95 % interval over the pull requests]; compare them only on the same golden set.",
        "",
        "verify-on minus verify-off, paired on 50 pull requests (golden set 0123456789ab):",
        "  precision        +0.12 [+0.03, +0.20]",
        "  recall           -0.02 [-0.09, +0.05]  not significant",
        "  F1               +0.05 [ 0.00, +0.10]  not significant",
        "  mean F1 of a PR  -0.10 [-0.20, -0.01]",
        "",
      ].join("\n"),
    );
  });

  it("is shown in docs/measuring-quality.md as it prints", () => {
    const text = reportTable({
      variants: {
        "verify-on": { golden_set: "0123456789ab", ...variant(0.6666, 0.0123) },
        "verify-off": { golden_set: "0123456789ab", ...variant(0.5, 0.0123) },
      },
      comparison,
    });
    expect(fs.readFileSync("docs/measuring-quality.md", "utf8")).toContain(`\`\`\`\n${text}\`\`\`\n`);
  });

  it("rounds figures to what an interval can tell, and keeps whole numbers and nulls", () => {
    expect(roundFigure(1 / 3)).toBe(0.3333);
    expect(roundFigure(0.000240000000001)).toBe(0.00024);
    expect(roundFigure(123456.7)).toBe(123457);
    expect(roundFigure(12.3456)).toBe(12.35);
    expect(roundFigure(7)).toBe(7);
    expect(roundFigures({ a: [2 / 3, null], b: "x", c: { d: 0.1 + 0.2 } })).toEqual({
      a: [0.6667, null],
      b: "x",
      c: { d: 0.3 },
    });
  });
});
