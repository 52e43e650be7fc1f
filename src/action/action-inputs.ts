// The action's inputs, read by the same functions as the App's environment. GitHub hands each
// input to the step as INPUT_<NAME> (upper-cased, hyphens kept); they are renamed here into the
// operator's variables (OPENAI_API_KEY, REVIEW_MAX_ROUNDS, …) and read by the CLI's settings
// schema (the App's provider, limit and price areas), so every problem is reported at once.

import { CliSettingsSchema } from "../config/cli-settings.ts";
import type { ProviderConfig } from "../config/provider-config.ts";
import { readEnvOrThrow } from "../config/read-env.ts";
import type { ReviewLimits } from "../config/review-limits.ts";
import type { SpendSettings } from "../config/spend-config.ts";
import { AUTHOR_POLICIES, type AuthorPolicy, DEFAULT_AUTHOR_POLICY } from "../domain/author-policy.ts";
import { isLoupeError, LoupeError } from "../domain/errors.ts";
import { SEVERITIES, type Severity } from "../domain/finding.ts";
import { registerSecret } from "../domain/redact.ts";
import type { SettingNames } from "../domain/setting-names.ts";
import { MACHINE_INPUTS, type MachineFiles, readMachineFiles } from "./machine-files.ts";

/** Input name → the environment variable the shared readers know it by. */
export const ENV_OF_INPUT = {
  "openai-base-url": "OPENAI_BASE_URL",
  "openai-api-key": "OPENAI_API_KEY",
  "review-model": "REVIEW_MODEL",
  "tool-calls": "REVIEW_TOOL_CALLS",
  "max-rounds": "REVIEW_MAX_ROUNDS",
  "max-tool-calls-per-round": "REVIEW_MAX_TOOL_CALLS_PER_ROUND",
  "max-tool-calls": "REVIEW_MAX_TOOL_CALLS",
  "timeout-ms": "REVIEW_TIMEOUT_MS",
  "max-tokens": "REVIEW_MAX_TOKENS",
  "max-tool-content-bytes": "REVIEW_MAX_TOOL_CONTENT_BYTES",
  "max-response-bytes": "REVIEW_MAX_RESPONSE_BYTES",
  "max-fetch-bytes": "REVIEW_MAX_FETCH_BYTES",
  verify: "REVIEW_VERIFY",
  "finder-passes": "REVIEW_FINDER_PASSES",
  "price-input": "REVIEW_PRICE_INPUT",
  "price-cached-input": "REVIEW_PRICE_CACHED_INPUT",
  "price-output": "REVIEW_PRICE_OUTPUT",
} as const;

const INPUT_OF_VARIABLE: ReadonlyMap<string, string> = new Map(
  Object.entries(ENV_OF_INPUT).map(([input, variable]) => [variable, input]),
);

/**
 * The action's texts name its inputs (`openai-base-url`) where the App's name its environment
 * (`OPENAI_BASE_URL`); a setting the action has no input for is not named (null).
 */
export const ACTION_SETTING_NAMES: SettingNames = (setting) => INPUT_OF_VARIABLE.get(setting) ?? null;

/** The inputs only the action has. */
export const ACTION_INPUTS = [
  "config",
  "fail-on",
  "fail-on-incomplete",
  "github-token",
  "bot-login",
  "mention",
  "auto-review-authors",
  ...MACHINE_INPUTS,
] as const;

export const DEFAULT_BOT_LOGIN = "github-actions[bot]";
export const DEFAULT_MENTION = "loupe";

export interface ActionSettings {
  readonly provider: ProviderConfig;
  readonly limits: ReviewLimits;
  /** The prices a review's cost is computed with (the `price-*` inputs), or null. */
  readonly prices: SpendSettings["prices"];
  /** Whose pull requests are reviewed without a writer's command (as the App's AUTO_REVIEW_AUTHORS). */
  readonly authorPolicy: AuthorPolicy;
  /** The severity that fails the job; null: the repository's own `fail_on` decides. */
  readonly failOn: Severity | null;
  /** Whether a review that did not complete (neutral: GitHub or the provider away, out of budget) fails the job. */
  readonly failOnIncomplete: boolean;
  /** The repository configuration's path on the default branch; null: `.github/loupe.yml`. */
  readonly configPath: string | null;
  readonly token: string;
  /** Whose reviews are Loupe's earlier ones: the workflow token's bot, or an App's `<slug>[bot]`. */
  readonly botLogin: string;
  /** `@<mention> review` in a comment asks for a review. */
  readonly mention: string;
  /** Where the review for machines is written (machine-files.ts). */
  readonly machineFiles: MachineFiles;
}

type Env = Readonly<Record<string, string | undefined>>;

/** An input as the runner passes it; absent and blank are the same (GitHub passes "" for unset). */
export function actionInput(env: Env, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim();
}

export function readActionSettings(env: Env): ActionSettings {
  const shared: Record<string, string> = {};
  for (const [input, variable] of Object.entries(ENV_OF_INPUT)) shared[variable] = actionInput(env, input);
  const token = actionInput(env, "github-token") || (env.GITHUB_TOKEN ?? "").trim();
  if (token === "") throw new LoupeError("configuration_invalid", "input github-token is required");
  // As the provider's key is: from here on, no output of the action may quote the token.
  registerSecret(token);
  return {
    ...inInputTerms(() => {
      const { provider, limits, budget } = readEnvOrThrow(CliSettingsSchema, shared);
      return { provider, limits, prices: budget.prices };
    }),
    failOn: readFailOn(actionInput(env, "fail-on")),
    failOnIncomplete: readBoolean("fail-on-incomplete", actionInput(env, "fail-on-incomplete")),
    authorPolicy: readAuthorPolicy(actionInput(env, "auto-review-authors")),
    configPath: readConfigPath(actionInput(env, "config")),
    token,
    botLogin: actionInput(env, "bot-login") || DEFAULT_BOT_LOGIN,
    mention: readMention(actionInput(env, "mention") || DEFAULT_MENTION),
    machineFiles: readMachineFiles(env),
  };
}

/** The shared readers name environment variables; a workflow's author wrote inputs. */
function inInputTerms<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!isLoupeError(error)) throw error;
    let message = error.message.replace(/\s*\((?:README: [^)]*|docs\/[^)]*)\)/, "");
    for (const [input, variable] of Object.entries(ENV_OF_INPUT)) {
      message = message.replace(new RegExp(`\\b${variable}\\b`, "g"), `input ${input}`);
    }
    throw new LoupeError(error.code, message);
  }
}

function readAuthorPolicy(text: string): AuthorPolicy {
  if (text === "") return DEFAULT_AUTHOR_POLICY;
  if ((AUTHOR_POLICIES as readonly string[]).includes(text)) return text as AuthorPolicy;
  throw new LoupeError(
    "configuration_invalid",
    `input auto-review-authors must be one of ${AUTHOR_POLICIES.join(", ")}`,
  );
}

function readFailOn(text: string): Severity | null {
  if (text === "") return null;
  if ((SEVERITIES as readonly string[]).includes(text)) return text as Severity;
  throw new LoupeError("configuration_invalid", `input fail-on must be one of ${SEVERITIES.join(", ")}`);
}

function readBoolean(input: string, text: string): boolean {
  if (text === "" || text === "false") return false;
  if (text === "true") return true;
  throw new LoupeError("configuration_invalid", `input ${input} must be true or false`);
}

function readConfigPath(text: string): string | null {
  if (text === "") return null;
  // A path inside the repository, read from its default branch: never a URL, never outside it.
  if (
    text.startsWith("/") ||
    text.split("/").some((part) => part === ".." || part === "") ||
    /\\/.test(text)
  ) {
    throw new LoupeError(
      "configuration_invalid",
      "input config must be a relative path inside the repository",
    );
  }
  return text;
}

function readMention(text: string): string {
  const name = text.replace(/^@/, "");
  if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/.test(name)) {
    throw new LoupeError("configuration_invalid", "input mention must be a GitHub login, e.g. loupe");
  }
  return name;
}
