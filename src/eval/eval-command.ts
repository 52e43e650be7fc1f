// `loupe eval <step>`: measuring review quality on Martian's offline code-review benchmark
// (docs/measuring-quality.md). Each step reads the previous step's files, so a step can be run
// again, or resumed, alone.

import type { CliIo } from "../cli/io.ts";
import { LoupeError } from "../domain/errors.ts";
import { type EvalArgs, type EvalStep, isEvalStep, parseEvalArgs } from "./eval-args.ts";

type Step = (args: EvalArgs, io: CliIo) => Promise<number>;

async function loadStep(step: EvalStep): Promise<Step> {
  switch (step) {
    case "prepare":
      return (await import("./eval-prepare.ts")).runEvalPrepare;
    case "run":
      return (await import("./eval-run.ts")).runEvalRun;
    case "judge":
      return (await import("./eval-judge.ts")).runEvalJudge;
    case "report":
      return (await import("./eval-report.ts")).runEvalReport;
  }
}

export async function runEvalCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const [step, ...rest] = argv;
  if (!isEvalStep(step)) {
    throw new LoupeError("usage_invalid", "loupe eval needs a step: prepare, run, judge or report");
  }
  return await (await loadStep(step))(parseEvalArgs(step, rest), io);
}
