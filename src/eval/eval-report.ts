// `loupe eval report --results DIR [--compare A B]`: each variant's figures (scores.ts) from its
// judged files, as JSON on stdout; with --compare, the paired difference A minus B.

import type { CliIo } from "../cli/io.ts";
import { LoupeError } from "../domain/errors.ts";
import { type EvalArgs, one } from "./eval-args.ts";
import { listStored, readJson } from "./eval-files.ts";
import { compareVariants, type JudgedRun, variantReport } from "./scores.ts";

export async function runEvalReport(args: EvalArgs, io: CliIo): Promise<number> {
  const variants = new Map<string, JudgedRun[]>();
  for (const stored of await listStored(one(args, "results"), "judged")) {
    const judged = (await readJson(stored.file)) as JudgedRun;
    const run: JudgedRun = {
      key: stored.key,
      run: stored.run,
      counts: judged.counts,
      findings: judged.findings,
      tokens: judged.tokens,
      dollars: judged.dollars,
      seconds: judged.seconds,
    };
    variants.set(stored.variant, [...(variants.get(stored.variant) ?? []), run]);
  }
  if (variants.size === 0)
    throw new LoupeError("usage_invalid", "no judged reviews (run loupe eval judge first)");
  const report: Record<string, unknown> = {
    variants: Object.fromEntries([...variants].map(([name, runs]) => [name, variantReport(runs)])),
  };
  const compare = args.compare;
  if (compare !== undefined) {
    const [a, b] = compare.map((name) => {
      const runs = variants.get(name);
      if (runs === undefined) throw new LoupeError("usage_invalid", `no judged reviews of variant ${name}`);
      return runs;
    });
    report.comparison = { a: compare[0], b: compare[1], ...compareVariants(a!, b!) };
  }
  io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  return 0;
}
