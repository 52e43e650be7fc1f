// `loupe review`: runs the whole review loop against a local repository (or a clone URL) with the
// provider configured in the environment, with the repository configuration the App would use
// (review-settings.ts), and prints the result with what the App would post for it. Exit 0 on
// final_review (or when the App would skip the change), 1 on any other termination reason, 2 on
// bad usage/configuration.

import path from "node:path";
import type { CliIo } from "../cli.ts";
import { readProviderConfig } from "../config/provider-config.ts";
import { readReviewLimits } from "../config/review-limits.ts";
import { changesOf } from "../diff/changes.ts";
import { listTreeChange } from "../diff/listed-change.ts";
import { isLoupeError, LoupeError } from "../errors.ts";
import { describeGuidance } from "../guidance/describe-guidance.ts";
import { loadGuidance } from "../guidance/load-guidance.ts";
import { snapshotGuidanceSource } from "../guidance/snapshot-source.ts";
import { createOpenAiProvider } from "../llm/client.ts";
import { runReviewLoop } from "../llm/loop.ts";
import { createToolRegistry } from "../tools/registry.ts";
import type { Workspace } from "../workspace/types.ts";
import { VALUE_OPTIONS } from "./help.ts";
import { openRepository } from "./open-repository.ts";
import { renderLocalReviewMarkdown, renderSkipMarkdown } from "./render-review.ts";
import { planLocalReview, scopeReview } from "./review-scope.ts";
import { readReviewSettings } from "./review-settings.ts";

interface ReviewArgs {
  repo: string;
  base: string;
  head: string;
  format: "json" | "markdown";
  trace: boolean;
  config: string | undefined;
}

export async function runReviewCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const providerConfig = readProviderConfig(io.env);
  const limits = readReviewLimits(io.env);
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  let workspace: Workspace | undefined;
  try {
    workspace = await openWorkspace(args, io.env, controller.signal);
    const settings = await readReviewSettings({
      repo: args.repo,
      base: args.base,
      isUrl: looksLikeUrl(args.repo),
      configFile: args.config,
      mergeBase: { snapshot: workspace.mergeBase, objects: workspace.objects },
    });
    const changes = await changesOf(workspace);
    const scope = scopeReview(settings.config, changes);
    if (scope.kind === "skip") {
      io.stdout(
        args.format === "json"
          ? `${JSON.stringify({ skipped: { reason: scope.reason, detail: scope.detail }, configuration: settings.source }, null, 2)}\n`
          : renderSkipMarkdown(settings.source, scope.detail),
      );
      return 0;
    }
    // Guidance from the base side, as the App reads it from the default branch: the changes under
    // review never decide what the model is told about the repository.
    const guidance = await loadGuidance({
      source: snapshotGuidanceSource(workspace.mergeBase, workspace.objects),
      config: settings.config,
      changedFiles: scope.reviewable.map((c) => c.path),
    });
    const instructions = settings.config.instructions;
    const repository = repositoryName(args.repo);
    const result = await runReviewLoop({
      provider: createOpenAiProvider(providerConfig),
      tools: createToolRegistry(workspace),
      view: workspace,
      model: providerConfig.model,
      prompt: {
        repository: `${repository.owner}/${repository.repo}`,
        pullRequest: null,
        baseSha: workspace.mergeBase.commit,
        headSha: workspace.head.commit,
        changedFiles: scope.reviewable.map(listTreeChange),
        ...(instructions.trim() === "" ? {} : { repositoryInstructions: instructions }),
        guidance: guidance.files,
      },
      limits,
      toolCalls: providerConfig.toolCalls,
      includeTrace: args.trace,
      signal: controller.signal,
    });
    const plan = await planLocalReview({
      result,
      view: workspace,
      changes,
      config: settings.config,
      repository,
    });
    const facts = {
      configuration: settings.source,
      filesReviewed: scope.reviewable.length,
      filesLeftOut: scope.leftOut,
      guidance: describeGuidance(guidance, "the base revision"),
    };
    io.stdout(
      args.format === "json"
        ? `${JSON.stringify({ ...result, ...facts, plan }, null, 2)}\n`
        : renderLocalReviewMarkdown({ result, plan, ...facts }),
    );
    return result.termination_reason === "final_review" ? 0 : 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await workspace?.dispose();
  }
}

async function openWorkspace(
  args: ReviewArgs,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<Workspace> {
  try {
    return await openRepository({ repo: args.repo, base: args.base, head: args.head, env, signal });
  } catch (error) {
    // A directory that is not a repository, or a revision it does not have, is the caller's
    // input: bad usage (exit 2). The opener's messages name no local path.
    if (isLoupeError(error, "git_repository_invalid") || isLoupeError(error, "git_commit_unreachable")) {
      throw new LoupeError("usage_invalid", error.message);
    }
    throw error;
  }
}

function looksLikeUrl(repo: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(repo);
}

/**
 * owner/repo for the prompt and the sanitiser: from a URL's host and path, or local/<dir name> on
 * github.com (never a full local path).
 */
function repositoryName(repo: string): { owner: string; repo: string; host: string } {
  if (looksLikeUrl(repo)) {
    const url = new URL(repo);
    const parts = url.pathname
      .replace(/\.git$/, "")
      .split("/")
      .filter(Boolean);
    const [owner = "unknown", name = "repository"] = parts.length >= 2 ? parts.slice(-2) : [];
    return { owner, repo: name, host: url.host };
  }
  return { owner: "local", repo: path.basename(path.resolve(repo)), host: "github.com" };
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
  if (format !== "json" && format !== "markdown") {
    throw new LoupeError("usage_invalid", "--format must be json or markdown");
  }
  return { repo: values.repo!, base: values.base!, head: values.head!, format, trace, config: values.config };
}
