// `loupe eval judge`: every published finding of every stored review is a candidate, put to the
// judge against each golden comment of its pull request (the benchmark's question, one pair a
// call); matching.ts turns the verdicts into TP/FP/FN. The judge is any OpenAI-compatible endpoint
// (JUDGE_BASE_URL, JUDGE_API_KEY, JUDGE_MODEL) through Loupe's own provider client. A review whose
// pairs all got an answer gets its judged file; one with an unanswered pair is judged again next time.

import path from "node:path";
import type { CliIo } from "../cli/io.ts";
import { ProviderConfigSchema } from "../config/provider-config.ts";
import { readEnvOrThrow } from "../config/read-env.ts";
import { isLoupeError, LoupeError } from "../domain/errors.ts";
import { createOpenAiProvider } from "../llm/client.ts";
import type { ChatProvider } from "../llm/provider.ts";
import { mapBounded } from "./bounded-map.ts";
import { type EvalArgs, one } from "./eval-args.ts";
import { exists, judgedName, listStored, readJson, readManifest, writeJson } from "./eval-files.ts";
import { candidateText, judgeRequest, readVerdict } from "./judge-prompt.ts";
import type { ManifestPull } from "./manifest.ts";
import { matchCandidates, type PairVerdict } from "./matching.ts";
import type { RunRecord } from "./run-record.ts";
import type { JudgedRun } from "./scores.ts";

const CALL_DEADLINE_MS = 120_000;

export async function runEvalJudge(args: EvalArgs, io: CliIo): Promise<number> {
  const judge = judgeProvider(io.env);
  const manifest = await readManifest(one(args, "manifest"));
  const pulls = new Map(manifest.pulls.map((pull) => [pull.key, pull]));
  let judged = 0;
  let failed = 0;
  for (const stored of await listStored(one(args, "results"), "result")) {
    const target = path.join(path.dirname(stored.file), judgedName(stored.key, stored.run));
    if (await exists(target)) continue;
    const pull = pulls.get(stored.key);
    if (pull === undefined) throw new LoupeError("usage_invalid", `${stored.key} is not in the manifest`);
    const record = (await readJson(stored.file)) as RunRecord;
    const outcome = await judgeRecord(judge, pull, record);
    if (outcome.errors > 0) {
      failed++;
      io.stderr(
        `loupe eval: ${stored.variant}/${stored.key} run ${stored.run}: ${outcome.errors} pairs unanswered (${outcome.firstError})\n`,
      );
      continue;
    }
    const matching = matchCandidates(pull.golden.length, record.findings.length, outcome.verdicts);
    // What the report reads (a JudgedRun), with the pairs and verdicts kept for a reader to check.
    const judgedRun: JudgedRun = {
      key: record.key,
      run: record.run,
      counts: { tp: matching.tp, fp: matching.fp, fn: matching.fn },
      findings: record.findings.length,
      tokens: record.tokens,
      dollars: record.dollars,
      seconds: record.seconds,
    };
    await writeJson(target, {
      ...judgedRun,
      variant: stored.variant,
      // Scores are comparable only on the same golden set: the report prints this beside them.
      golden_set: manifest.golden_set ?? null,
      pairs: matching.pairs,
      verdicts: outcome.verdicts,
    });
    judged++;
  }
  io.stdout(`${judged} reviews judged${failed > 0 ? `, ${failed} to judge again` : ""}\n`);
  return failed > 0 ? 1 : 0;
}

async function judgeRecord(judge: Judge, pull: ManifestPull, record: RunRecord) {
  const candidates = record.findings.map(candidateText);
  const pairs = pull.golden.flatMap((comment, golden) =>
    candidates.map((text, candidate) => ({ golden, candidate, comment: comment.comment, text })),
  );
  type Answer = (PairVerdict & { readonly reasoning: string }) | { readonly error: string };
  const answers = await mapBounded(pairs, judge.concurrency, async (pair): Promise<Answer> => {
    const answer = await judge.provider.complete(judgeRequest(judge.model, pair.comment, pair.text), {
      signal: new AbortController().signal,
      deadline: Date.now() + CALL_DEADLINE_MS,
    });
    const verdict = answer.kind === "response" ? readVerdict(answer.body) : null;
    if (verdict === null) return { error: answer.kind === "failure" ? answer.reason : "no answer" };
    if (verdict.kind === "error") return { error: `the judge's answer has ${verdict.error}` };
    const { match, confidence, reasoning } = verdict;
    return { golden: pair.golden, candidate: pair.candidate, match, confidence, reasoning };
  });
  const verdicts = answers.filter(
    (answer): answer is Exclude<Answer, { error: string }> => !("error" in answer),
  );
  const failures = answers.filter((answer): answer is { readonly error: string } => "error" in answer);
  return { verdicts, errors: failures.length, firstError: failures[0]?.error ?? "" };
}

/** The judge's endpoint, checked by the provider schema under the judge's own variable names. */
interface Judge {
  readonly provider: ChatProvider;
  readonly model: string;
  /** JUDGE_CONCURRENCY: pairs asked at once (1 to 64, default 8). */
  readonly concurrency: number;
}

function judgeProvider(env: NodeJS.ProcessEnv): Judge {
  const names = {
    OPENAI_BASE_URL: "JUDGE_BASE_URL",
    OPENAI_API_KEY: "JUDGE_API_KEY",
    REVIEW_MODEL: "JUDGE_MODEL",
  };
  const judgeEnv: Record<string, string> = {};
  for (const [name, judgeName] of Object.entries(names)) judgeEnv[name] = env[judgeName] ?? "";
  try {
    const config = readEnvOrThrow(ProviderConfigSchema, judgeEnv);
    const concurrency = Number(env.JUDGE_CONCURRENCY ?? "8");
    if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 64) {
      throw new LoupeError("configuration_invalid", "JUDGE_CONCURRENCY is not an integer from 1 to 64");
    }
    return { provider: createOpenAiProvider(config), model: config.model, concurrency };
  } catch (error) {
    if (!isLoupeError(error, "configuration_invalid")) throw error;
    let message = error.message;
    for (const [name, judgeName] of Object.entries(names)) message = message.replaceAll(name, judgeName);
    throw new LoupeError("configuration_invalid", message);
  }
}
