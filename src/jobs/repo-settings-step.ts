// Step 2 of a review: `.github/loupe.yml` from the default branch, validated, and the skips it
// decides (disabled, drafts, bot authors). An invalid file ends the job `action_required` with
// every error's dotted path and message, so the fix is obvious from the check run.

import type { RepoConfig } from "../config/repo-config.ts";
import { isPaused, PAUSE_LABEL } from "../conversation/pause-state.ts";
import type { GitHubClient, RepoRef } from "../github/octokit.ts";
import { readRepoConfigFile } from "../github/repo-config-file.ts";
import { type Ending, skippedEnding } from "./ending.ts";
import { configErrorOutput } from "../check-runs/texts.ts";
import type { ResolvedPullRequest } from "./resolve-pull-request.ts";
import type { ReviewPorts } from "./review-ports.ts";

export type SettingsStep = { readonly kind: "review"; readonly config: RepoConfig } | Ending;

export async function repoSettingsStep(
  octokit: GitHubClient,
  ref: RepoRef,
  ports: Pick<ReviewPorts, "parseRepoConfig">,
  pr: ResolvedPullRequest,
  rerun: boolean,
): Promise<SettingsStep> {
  const file = await readRepoConfigFile(octokit, ref);
  const parsed =
    file.kind === "unreadable"
      ? { ok: false as const, errors: [{ path: "(file)", message: file.message }] }
      : ports.parseRepoConfig(file.kind === "found" ? file.text : null);
  if (!parsed.ok) {
    return { conclusion: "action_required", output: configErrorOutput(parsed.errors), remember: false };
  }
  const config = parsed.config;
  if (!config.enabled) return skippedEnding("disabled", "Loupe is disabled in `.github/loupe.yml`.");
  // A person who presses Re-run asked for this review, draft or bot author or not.
  if (!rerun && pr.draft && !config.review_drafts) {
    return skippedEnding(
      "draft",
      "Draft pull request (`review_drafts` is off). Loupe reviews it when it is marked ready.",
      false,
    );
  }
  // Pushes only: a command or the Re-run button is a person asking, paused or not.
  if (!rerun && !config.auto_review) {
    return skippedEnding(
      "auto_review_off",
      `\`auto_review\` is off in \`.github/loupe.yml\`: Loupe reviews when asked (a \`review\` command mentioning Loupe, or the Re-run button).`,
    );
  }
  if (!rerun && isPaused(pr.labels)) {
    return skippedEnding(
      "paused",
      `Automatic reviews are paused on this pull request (label \`${PAUSE_LABEL}\`): a \`resume\` command mentioning Loupe turns them back on, a \`review\` command reviews now.`,
    );
  }
  if (!rerun && pr.authorIsBot && config.ignore_bots) {
    return skippedEnding("bot_author", "The pull request was opened by a bot (`ignore_bots` is on).");
  }
  return { kind: "review", config };
}
