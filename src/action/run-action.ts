// Loupe as a GitHub Action: the triggering event's pull request, reviewed by the one review
// pipeline on the same GitHub host as the App (its fetch of the immutable head with the token, the
// tools and loop, validation, anchoring, publishing), inside the same check run. What the action
// adds is the runner's side: its inputs and event, a writer's comment as a trigger, the refusal
// to run beside a checkout of the pull request's code, and the step summary and outputs.

import fs from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { isLoupeError } from "../domain/errors.ts";
import type { GitHubReview } from "../domain/review-request.ts";
import { createConversationApi } from "../forges/github/conversation-api.ts";
import type { GitHubClient } from "../forges/github/octokit.ts";
import { commandRequest, toActionEvent } from "./action-event.ts";
import { type ActionSettings, readActionSettings } from "./action-inputs.ts";
import { annotation, type Write } from "./action-log.ts";
import { actionGitHubClient } from "./github-client.ts";
import { reviewInAction } from "./review-in-action.ts";
import { type RunnerContext, readRunnerContext } from "./runner-context.ts";
import { appendSummary, writeOutputs } from "./step-files.ts";
import { giveUpSoonWhenUnreachable, type UnreachableGitHub } from "./unreachable-github.ts";
import { headCheckout } from "./workspace-guard.ts";

export interface ActionIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: Write;
  /** Aborted when the runner cancels the job. */
  readonly signal: AbortSignal;
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  delay(ms, undefined, signal === undefined ? {} : { signal });

/** The step's exit code: 0, or 1 when the job must fail (bad inputs, a refusal, the gate). */
export async function runAction(io: ActionIo): Promise<number> {
  let context: RunnerContext;
  let settings: ActionSettings;
  try {
    context = readRunnerContext(io.env);
    settings = readActionSettings(io.env);
  } catch (error) {
    if (!isLoupeError(error)) throw error;
    io.stdout(annotation("error", error.message));
    return 1;
  }
  const payload: unknown = JSON.parse(fs.readFileSync(context.eventPath, "utf8"));
  const runId = (io.env.GITHUB_RUN_ID ?? "").trim() || "0";
  const event = toActionEvent(context.eventName, payload, { ...settings, runId });
  if (event.kind === "skip") return nothingToDo(context, io, event.message);
  const octokit = actionGitHubClient({
    token: settings.token,
    baseUrl: context.apiUrl,
    warn: (message) => io.stdout(annotation("warning", message)),
  });
  const unreachable = giveUpSoonWhenUnreachable(octokit, context.apiUrl, io.stdout);
  let request: GitHubReview;
  if (event.kind === "review") {
    request = event.request;
  } else {
    const api = createConversationApi(octokit, context);
    if (!(await api.canWrite(event.login))) {
      return nothingToDo(
        context,
        io,
        `@${event.login} may not ask for a review: that takes write access to the repository.`,
      );
    }
    // 👀 on the comment, as the App answers a command; a token that may not react changes nothing.
    await api
      .acknowledge("issue_comment", event.commentId)
      .catch(() => io.stdout(annotation("warning", "Loupe could not react to the comment.")));
    const pull = await api.pullHead(event.pullNumber);
    request = commandRequest(event, { ...context, runId, headSha: pull.headSha });
  }
  return await guardedReview({ context, settings, octokit, unreachable, request, io });
}

async function guardedReview(input: {
  readonly context: RunnerContext;
  readonly settings: ActionSettings;
  readonly octokit: GitHubClient;
  readonly unreachable: UnreachableGitHub;
  readonly request: GitHubReview;
  readonly io: ActionIo;
}): Promise<number> {
  const { context, request, io } = input;
  const refusal = await headCheckout(
    { workspace: context.workspace, temp: context.tempDir },
    { sha: request.headSha, tree: await headTree(input.octokit, context, request.headSha) },
  );
  if (refusal !== null) {
    appendSummary(
      context.summaryPath,
      `## Loupe · pull request #${request.pullNumber}\n\n**Not reviewed.** ${refusal}\n`,
    );
    io.stdout(annotation("error", refusal));
    return 1;
  }
  return await reviewInAction({ ...input, sleep });
}

/** The head's tree, so the guard knows the head's files under any commit id; null when GitHub cannot say. */
async function headTree(octokit: GitHubClient, context: RunnerContext, sha: string): Promise<string | null> {
  try {
    const { data } = await octokit.rest.git.getCommit({
      owner: context.owner,
      repo: context.repo,
      commit_sha: sha,
    });
    return data.tree.sha;
  } catch {
    return null;
  }
}

function nothingToDo(context: RunnerContext, io: ActionIo, message: string): number {
  appendSummary(context.summaryPath, `## Loupe\n\nNothing to review: ${message}\n`);
  writeOutputs(context.outputPath, { "termination-reason": "", findings: "0", tokens: "0", cost: "" });
  io.stdout(annotation("notice", message));
  return 0;
}
