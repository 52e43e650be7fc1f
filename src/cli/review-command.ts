// `loupe review`: runs the App's review pipeline on a local repository (or a clone URL) with the
// provider configured in the environment, with the repository configuration the App would use
// (forges/local/config-file.ts), and prints the result with what the App would post for it. Exit 0 on
// final_review (or when the App would skip the change), 1 on any other termination reason, 2 on
// bad usage/configuration.

import { CliSettingsSchema } from "../config/cli-settings.ts";
import { loupeTool } from "../config/loupe-version.ts";
import { readEnvOrThrow } from "../config/read-env.ts";
import { LoupeError } from "../domain/errors.ts";
import { GITHUB_WORDS } from "../forges/github/words.ts";
import { localHost } from "../forges/local/local-host.ts";
import { LOCAL_WORDS } from "../forges/local/words.ts";
import { createDefaultPorts } from "../jobs/default-ports.ts";
import { describeGuidance } from "../pipeline/describe-guidance.ts";
import { reviewSarif } from "../pipeline/machine-review.ts";
import { startReviewDeadline } from "../pipeline/review-deadline.ts";
import type { ConfigError, ReviewOutcome } from "../pipeline/review-outcome.ts";
import { reviewPullRequest } from "../pipeline/review-pull-request.ts";
import { VALUE_OPTIONS } from "./help.ts";
import type { CliIo } from "./io.ts";
import { renderLocalReviewMarkdown, renderSkipMarkdown } from "./render-review.ts";
import { reviewedJson, skippedJson } from "./review-json.ts";
import { type ReviewProgress, startReviewProgress } from "./review-progress.ts";

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
  let progress: ReviewProgress | undefined;
  const onSignal = (): void => controller.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  // The review's time starts before the first git read: the local host reads the repository on
  // the pipeline's first question, under the deadline's signal.
  const deadline = startReviewDeadline({
    timeoutMs: limits.timeoutMs,
    now: Date.now,
    signal: controller.signal,
  });
  try {
    await using host = localHost({
      repo: args.repo,
      base: args.base,
      head: args.head,
      ...(args.config === undefined ? {} : { configFile: args.config }),
      env: io.env,
      signal: deadline.signal,
    });
    // A repository the host cannot read (too large, past the deadline) is the pipeline's to end:
    // its first question meets the same failure, and the outcome names no configuration then.
    const configuration = await host.repoConfig().then(
      (file) => file.source,
      () => "(the repository could not be read)",
    );
    const target = {
      host: new URL(provider.baseURL).host,
      model: provider.model,
      timeoutMs: limits.timeoutMs,
    };
    const started = async () => {
      if (io.stderrIsTerminal === true) progress = startReviewProgress(io.stderr, target);
      return 0;
    };
    // The App's own pipeline, with everything a person asking for a review implies.
    const outcome = await reviewPullRequest(host, ports, {
      signal: controller.signal,
      asked: true,
      askedFull: true,
      // Asked for: no author policy holds a review someone started by hand.
      authorPolicy: "everyone",
      prices: budget.prices,
      now: Date.now,
      deadline,
      started,
      onRound: (round) => progress?.onRound(round),
      log: { info: () => {}, warn: () => {} },
    });
    io.stdout(renderOutcome(outcome, configuration, args.format));
    return outcome.kind === "reviewed" && outcome.result.termination_reason !== "final_review" ? 1 : 0;
  } finally {
    progress?.stop();
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
