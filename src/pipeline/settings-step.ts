// `.github/loupe.yml` as the host read it (never from the head), validated, and the skips it
// decides (disabled, drafts, manual-only, paused, bot authors). An invalid file is an outcome that
// names every error's dotted path, so the fix is obvious wherever it is shown.

import type { RepoConfig } from "../config/repo-config-schema.ts";
import { isPaused, PAUSE_LABEL } from "../conversation/pause-state.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import type { HostConfigFile } from "../host/pull-request-host.ts";
import { commandHandle, commandText } from "./command-text.ts";
import { type ReviewOutcome, skipped } from "./review-outcome.ts";
import type { ReviewPorts } from "./review-ports.ts";

export type SettingsStep = { readonly kind: "settings"; readonly config: RepoConfig } | ReviewOutcome;

export async function decideSettings(input: {
  readonly configFile: HostConfigFile;
  readonly parse: ReviewPorts["parseRepoConfig"];
  readonly pullRequest: PullRequest;
  /** A person asked for this review (re-run, command, the CLI): drafts, bots and pauses do not hold it. */
  readonly asked: boolean;
  /** How the texts name the change and its rerun. */
  readonly words: ForgeWords;
  /** The handle commands mention, looked up only for a text that says what to type. */
  readonly mention?: () => Promise<string>;
}): Promise<SettingsStep> {
  const { file } = input.configFile;
  const parsed =
    file.kind === "unreadable"
      ? { ok: false as const, errors: [{ path: "(file)", message: file.message }] }
      : input.parse(file.kind === "found" ? file.text : null);
  if (!parsed.ok) return { kind: "config_invalid", errors: parsed.errors };
  const config = parsed.config;
  const pr = input.pullRequest;
  if (!config.enabled) return skipped("disabled", "Loupe is disabled in `.github/loupe.yml`.");
  if (input.asked) return { kind: "settings", config };
  if (pr.draft && !config.review_drafts) {
    return skipped(
      "draft",
      `Draft ${input.words.change} (\`review_drafts\` is off). Loupe reviews it when it is marked ready.`,
      false,
    );
  }
  if (!config.auto_review) {
    const review = commandText(await commandHandle(input.mention), "review");
    return skipped(
      "auto_review_off",
      `\`auto_review\` is off in \`.github/loupe.yml\`: Loupe reviews when asked (${[review, input.words.besideCommand].filter(Boolean).join(", or ")}).`,
    );
  }
  if (isPaused(pr.labels)) {
    const handle = await commandHandle(input.mention);
    return skipped(
      "paused",
      `Automatic reviews are paused on this ${input.words.change} (label \`${PAUSE_LABEL}\`): ` +
        `${commandText(handle, "resume")} turns them back on, ${commandText(handle, "review")} reviews now.`,
    );
  }
  if (pr.author?.isBot === true && config.ignore_bots) {
    return skipped("bot_author", `The ${input.words.change} was opened by a bot (\`ignore_bots\` is on).`);
  }
  return { kind: "settings", config };
}
