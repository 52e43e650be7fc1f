// `loupe eval report --results DIR [--compare A B] [--json]`: each variant's figures (scores.ts)
// from its judged files, with the golden set they were judged against; with --compare, the paired
// difference A minus B. A table for a person by default (report-table.ts), JSON with --json.

import type { CliIo } from "../cli/io.ts";
import { LoupeError } from "../domain/errors.ts";
import { type EvalArgs, one } from "./eval-args.ts";
import { listStored, readJson } from "./eval-files.ts";
import { type ReportFigures, roundFigures, type VariantFigures } from "./report-figures.ts";
import { reportTable } from "./report-table.ts";
import { compareVariants, type JudgedRun, variantReport } from "./scores.ts";

interface Variant {
  readonly runs: JudgedRun[];
  readonly goldenSets: Set<string | null>;
}

async function readVariants(results: string): Promise<Map<string, Variant>> {
  const variants = new Map<string, Variant>();
  for (const stored of await listStored(results, "judged")) {
    const judged = (await readJson(stored.file)) as JudgedRun & { readonly golden_set?: string | null };
    const variant = variants.get(stored.variant) ?? { runs: [], goldenSets: new Set() };
    variant.runs.push({
      key: stored.key,
      run: stored.run,
      counts: judged.counts,
      findings: judged.findings,
      tokens: judged.tokens,
      dollars: judged.dollars,
      seconds: judged.seconds,
    });
    variant.goldenSets.add(judged.golden_set ?? null);
    variants.set(stored.variant, variant);
  }
  if (variants.size === 0)
    throw new LoupeError("usage_invalid", "no judged reviews (run loupe eval judge first)");
  return variants;
}

/** The one golden set a variant was judged against: a mixture has no meaningful score. */
function goldenSetOf(name: string, variant: Variant): string | null {
  if (variant.goldenSets.size === 1) return [...variant.goldenSets][0]!;
  const sets = [...variant.goldenSets].map((set) => set ?? "unknown").join(", ");
  throw new LoupeError(
    "usage_invalid",
    `variant ${name} was judged against several golden sets (${sets}): delete its *.judged.json files and judge again`,
  );
}

export async function runEvalReport(args: EvalArgs, io: CliIo): Promise<number> {
  const variants = await readVariants(one(args, "results"));
  const figures: Record<string, VariantFigures> = {};
  for (const [name, variant] of variants) {
    figures[name] = { golden_set: goldenSetOf(name, variant), ...variantReport(variant.runs) };
  }
  let report: ReportFigures = { variants: figures };
  const compare = args.compare;
  if (compare !== undefined) {
    const [a, b] = compare as [string, string];
    for (const name of [a, b]) {
      if (!variants.has(name)) throw new LoupeError("usage_invalid", `no judged reviews of variant ${name}`);
    }
    const golden = figures[a]!.golden_set;
    if (golden !== figures[b]!.golden_set) {
      throw new LoupeError(
        "usage_invalid",
        `${a} and ${b} were judged against different golden sets (${golden ?? "unknown"}, ${figures[b]!.golden_set ?? "unknown"}): their scores cannot be compared`,
      );
    }
    const comparison = compareVariants(variants.get(a)!.runs, variants.get(b)!.runs);
    report = { ...report, comparison: { a, b, golden_set: golden, ...comparison } };
  }
  const rounded = roundFigures(report);
  io.stdout(args.json === undefined ? reportTable(rounded) : `${JSON.stringify(rounded, null, 2)}\n`);
  return 0;
}
