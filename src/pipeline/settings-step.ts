// The review's settings from their layers as the host read them (never from the head): the
// organisation's file, then the repository's `.github/loupe.yml`, merged (config/settings-layers.ts),
// and the skips they decide (disabled, drafts, manual-only, paused, bot authors). An invalid file is
// an outcome that names the file and every error's dotted path, so the fix is obvious wherever it
// is shown.

import type { RepoConfig } from "../config/repo-config-schema.ts";
import { type AppliedSettings, mergeSettingsLayers } from "../config/settings-layers.ts";
import { isPaused, PAUSE_LABEL } from "../conversation/pause-state.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import type { HostConfigFile } from "../host/pull-request-host.ts";
import { withSettings } from "./applied-settings.ts";
import { commandHandle, commandText } from "./command-text.ts";
import { type ReviewOutcome, skipped } from "./review-outcome.ts";
import type { ReviewPorts } from "./review-ports.ts";

export type SettingsStep =
  | { readonly kind: "settings"; readonly config: RepoConfig; readonly applied: AppliedSettings }
  | ReviewOutcome;

/** What the operator's environment sets for every repository, as the layers show it. */
export const NO_OPERATOR_KEYS = { source: "the server's environment", keys: [] } as const;

export async function decideSettings(input: {
  readonly configFile: HostConfigFile;
  /** The organisation's file; null or absent: no organisation layer. */
  readonly organisationFile?: HostConfigFile | null;
  readonly operator?: { readonly source: string; readonly keys: readonly string[] };
  readonly parse: ReviewPorts["parseRepoConfig"];
  readonly pullRequest: PullRequest;
  /** A person asked for this review (re-run, command, the CLI): drafts, bots and pauses do not hold it. */
  readonly asked: boolean;
  /** How the texts name the change and its rerun. */
  readonly words: ForgeWords;
  /** The handle commands mention, looked up only for a text that says what to type. */
  readonly mention?: () => Promise<string>;
}): Promise<SettingsStep> {
  const merged = mergeSettingsLayers({
    operator: input.operator ?? NO_OPERATOR_KEYS,
    organisation: input.organisationFile ?? null,
    repository: input.configFile,
    parse: input.parse,
  });
  if (!merged.ok) return { kind: "config_invalid", errors: merged.errors };
  const { config, applied } = merged;
  const decided = await decide(input, config, applied);
  return decided === null ? { kind: "settings", config, applied } : withSettings(decided, applied);
}

async function decide(
  input: Parameters<typeof decideSettings>[0],
  config: RepoConfig,
  applied: AppliedSettings,
): Promise<ReviewOutcome | null> {
  const pr = input.pullRequest;
  if (!config.enabled)
    return skipped("disabled", `Loupe is disabled in ${whoSet(applied, "enabled", input.words)}.`);
  if (input.asked) return null;
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
      `\`auto_review\` is off in ${whoSet(applied, "auto_review", input.words)}: Loupe reviews when asked (${[review, input.words.besideCommand].filter(Boolean).join(", or ")}).`,
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
  return null;
}

/** The file that set a key, as a skip names it: the repository's unless the organisation's did. */
function whoSet(applied: AppliedSettings, key: string, words: ForgeWords): string {
  const organisation = applied.layers.find((l) => l.layer === "organisation" && l.keys.includes(key));
  return organisation === undefined
    ? words.settingsFile
    : `the organisation's settings (${organisation.source})`;
}
