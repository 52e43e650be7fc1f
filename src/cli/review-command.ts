// `loupe review`: the App's review job (forge/run-review.ts) on the local forge (a local
// repository or a clone URL, forges/local/local-forge.ts) with the provider configured in the
// environment, with the repository configuration the App would use (forges/local/config-file.ts),
// and prints the result with what the App would post for it. Exit 0 on final_review (or when the
// App would skip the change), 1 on any other termination reason, 2 on bad usage/configuration.

import { CliSettingsSchema } from "../config/cli-settings.ts";
import { loupeTool } from "../config/loupe-version.ts";
import { readEnvOrThrow } from "../config/read-env.ts";
import { LoupeError } from "../domain/errors.ts";
import { runReview } from "../forge/run-review.ts";
import { GITHUB_WORDS } from "../forges/github/words.ts";
import { LOCAL_FORGE } from "../forges/local/local-forge.ts";
import { LOCAL_WORDS } from "../forges/local/words.ts";
import { createDefaultPorts } from "../jobs/default-ports.ts";
import { describeGuidance } from "../pipeline/describe-guidance.ts";
import { reviewSarif } from "../pipeline/machine-review.ts";
import type { ConfigError, ReviewOutcome } from "../pipeline/review-outcome.ts";
import { VALUE_OPTIONS } from "./help.ts";
import type { CliIo } from "./io.ts";
import { renderLocalReviewMarkdown, renderSkipMarkdown } from "./render-review.ts";
import { reviewedJson, skippedJson } from "./review-json.ts";
import { startReviewProgress } from "./review-progress.ts";

interface ReviewArgs {
  repo: string;
  base: string;
  head: string;
  format: "json" | "markdown" | "sarif";
  trace: boolean;
  config: string | undefined;
}

export async function runReviewCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const { provider, limits, budget } = readEnvOrThrow(CliSettingsSchema, io.env);
  const ports = createDefaultPorts({ provider, limits, includeTrace: args.trace });
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const target = { host: new URL(provider.baseURL).host, model: provider.model, timeoutMs: limits.timeoutMs };
  try {
    // The App's own review job, with everything a person asking for a review implies.
    const { outcome } = await runReview(
      {
        request: { rerun: true, trigger: "command.full_review" },
        signal: controller.signal,
        ports,
        // Asked for: no author policy holds a review someone started by hand.
        authorPolicy: "everyone",
        prices: budget.prices,
        now: Date.now,
        log: { info: () => {}, warn: () => {} },
      },
      await LOCAL_FORGE.review({
        ...{ repo: args.repo, base: args.base, head: args.head, env: io.env },
        ...(args.config === undefined ? {} : { configFile: args.config }),
        signal: controller.signal,
        timeoutMs: limits.timeoutMs,
        print: (outcome, configuration) => io.stdout(renderOutcome(outcome, configuration, args.format)),
        ...(io.stderrIsTerminal === true ? { progress: () => startReviewProgress(io.stderr, target) } : {}),
      }),
    );
    return outcome.kind === "reviewed" && outcome.result.termination_reason !== "final_review" ? 1 : 0;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

function renderOutcome(outcome: ReviewOutcome, configuration: string, format: ReviewArgs["format"]): string {
  if (format === "sarif" && (outcome.kind === "reviewed" || outcome.kind === "skipped")) {
    // SARIF is uploaded to GitHub's code scanning: its limits, and its words for the change.
    return reviewSarif(outcome, loupeTool(), GITHUB_WORDS);
  }
  switch (outcome.kind) {
    case "config_invalid":
      throw configInvalidError(configuration, outcome.errors);
    case "failed":
      throw outcome.error;
    case "cancelled":
      // Only a queue's cancel reasons end a review this way; the CLI's interrupt ends its loop instead.
      throw new Error("the review was cancelled");
    case "skipped":
      return format === "json"
        ? skippedJson(outcome, configuration)
        : renderSkipMarkdown(configuration, outcome.detail);
    case "reviewed": {
      const facts = {
        configuration,
        filesReviewed: outcome.filesReviewed,
        filesLeftOut: outcome.filesSkipped,
        guidance: describeGuidance(outcome.guidance, "the base revision", LOCAL_WORDS),
        ...(outcome.coverage === undefined ? {} : { coverage: outcome.coverage }),
      };
      return format === "json"
        ? reviewedJson(outcome, facts)
        : renderLocalReviewMarkdown({
            result: outcome.result,
            cost: outcome.cost,
            plan: outcome.plan,
            ...facts,
          });
    }
  }
}

/** One line (the dispatcher prints the first line of a message): every error, as the check run lists them. */
function configInvalidError(source: string, errors: readonly ConfigError[]): LoupeError {
  const listed = errors.map((e) => `${e.path || "(root)"}: ${e.message.replace(/\s+/g, " ")}`);
  return new LoupeError("configuration_invalid", `${source} is invalid: ${listed.join("; ")}`);
}

function parseArgs(argv: readonly string[]): ReviewArgs {
  const values: Record<string, string> = {};
  let trace = true;
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index] ?? "";
    if (flag === "--no-trace") {
      trace = false;
      continue;
    }
    if (!(VALUE_OPTIONS.review as readonly string[]).includes(flag)) {
      throw new LoupeError("usage_invalid", `unknown option ${JSON.stringify(flag)} for loupe review`);
    }
    const value = argv[index + 1];
    if (value === undefined || value.startsWith("--"))
      throw new LoupeError("usage_invalid", `${flag} needs a value`);
    values[flag.slice(2)] = value;
    index++;
  }
  for (const required of ["repo", "base", "head"]) {
    if (values[required] === undefined)
      throw new LoupeError("usage_invalid", `loupe review needs --${required}`);
  }
  const format = values.format ?? "json";
  if (format !== "json" && format !== "markdown" && format !== "sarif") {
    throw new LoupeError("usage_invalid", "--format must be json, markdown or sarif");
  }
  return { repo: values.repo!, base: values.base!, head: values.head!, format, trace, config: values.config };
}
