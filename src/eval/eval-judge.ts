// `loupe eval judge`: every published finding of every stored review is a candidate, put to the
// judge against each golden comment of its pull request (the benchmark's question, one pair a
// call); matching.ts turns the verdicts into TP/FP/FN. The judge is any OpenAI-compatible endpoint
// (JUDGE_BASE_URL, JUDGE_API_KEY, JUDGE_MODEL) through Loupe's own provider client. A review whose
// pairs all got an answer gets its judged file; one with an unanswered pair is judged again next time.

import type { CliIo } from "../cli/io.ts";
import { ProviderConfigSchema } from "../config/provider-config.ts";
import { readEnvOrThrow } from "../config/read-env.ts";
import { isLoupeError, LoupeError } from "../domain/errors.ts";
import { createOpenAiProvider } from "../llm/client.ts";
import type { ChatProvider } from "../llm/provider.ts";
import { type EvalArgs, one } from "./eval-args.ts";
import { exists, judgedName, listStored, readJson, readManifest, writeJson } from "./eval-files.ts";
import { candidateText, judgeRequest, readVerdict } from "./judge-prompt.ts";
import type { ManifestPull } from "./manifest.ts";
import { matchCandidates, type PairVerdict } from "./matching.ts";
import type { RunRecord } from "./run-record.ts";

const CALL_DEADLINE_MS = 120_000;

export async function runEvalJudge(args: EvalArgs, io: CliIo): Promise<number> {
  const { provider, model } = judgeProvider(io.env);
  const manifest = await readManifest(one(args, "manifest"));
  const pulls = new Map(manifest.pulls.map((pull) => [pull.key, pull]));
  let judged = 0;
  let failed = 0;
  for (const stored of await listStored(one(args, "results"), "result")) {
    const target = stored.file.replace(/\.json$/, ".judged.json");
    if (!target.endsWith(judgedName(stored.key, stored.run)) || (await exists(target))) continue;
    const pull = pulls.get(stored.key);
    if (pull === undefined) throw new LoupeError("usage_invalid", `${stored.key} is not in the manifest`);
    const record = (await readJson(stored.file)) as RunRecord;
    const outcome = await judgeRecord(provider, model, pull, record);
    if (outcome.errors > 0) {
      failed++;
      io.stderr(
        `loupe eval: ${stored.variant}/${stored.key} run ${stored.run}: ${outcome.errors} pairs unanswered\n`,
      );
      continue;
    }
    const matching = matchCandidates(pull.golden.length, record.findings.length, outcome.verdicts);
    await writeJson(target, {
      key: record.key,
      variant: stored.variant,
      run: record.run,
      counts: { tp: matching.tp, fp: matching.fp, fn: matching.fn },
      pairs: matching.pairs,
      verdicts: outcome.verdicts,
      findings: record.findings.length,
      tokens: record.tokens,
      dollars: record.dollars,
      seconds: record.seconds,
    });
    judged++;
  }
  io.stdout(`${judged} reviews judged${failed > 0 ? `, ${failed} to judge again` : ""}\n`);
  return failed > 0 ? 1 : 0;
}

async function judgeRecord(provider: ChatProvider, model: string, pull: ManifestPull, record: RunRecord) {
  const candidates = record.findings.map(candidateText);
  const verdicts: (PairVerdict & { reasoning: string })[] = [];
  let errors = 0;
  for (const [golden, comment] of pull.golden.entries()) {
    for (const [candidate, text] of candidates.entries()) {
      const signal = new AbortController().signal;
      const answer = await provider.complete(judgeRequest(model, comment.comment, text), {
        signal,
        deadline: Date.now() + CALL_DEADLINE_MS,
      });
      const verdict = answer.kind === "response" ? readVerdict(answer.body) : null;
      if (verdict === null || verdict.kind === "error") {
        errors++;
        continue;
      }
      const { match, confidence, reasoning } = verdict;
      verdicts.push({ golden, candidate, match, confidence, reasoning });
    }
  }
  return { verdicts, errors };
}

/** The judge's endpoint, checked by the provider schema under the judge's own variable names. */
function judgeProvider(env: NodeJS.ProcessEnv): { provider: ChatProvider; model: string } {
  const names = {
    OPENAI_BASE_URL: "JUDGE_BASE_URL",
    OPENAI_API_KEY: "JUDGE_API_KEY",
    REVIEW_MODEL: "JUDGE_MODEL",
  };
  const judgeEnv: Record<string, string> = {};
  for (const [name, judgeName] of Object.entries(names)) judgeEnv[name] = env[judgeName] ?? "";
  try {
    const config = readEnvOrThrow(ProviderConfigSchema, judgeEnv);
    return { provider: createOpenAiProvider(config), model: config.model };
  } catch (error) {
    if (!isLoupeError(error, "configuration_invalid")) throw error;
    let message = error.message;
    for (const [name, judgeName] of Object.entries(names)) message = message.replaceAll(name, judgeName);
    throw new LoupeError("configuration_invalid", message);
  }
}
