// How a text names one of Loupe's settings for the person who would change it: the App and the
// CLI are set by environment variables (`OPENAI_BASE_URL`), the GitHub Action by its inputs
// (`openai-base-url`). A text that says what to check takes the namer of the place it is shown in,
// so no text is rewritten afterwards.

/** The settings Loupe's texts point at, by their environment variable. */
export type Setting =
  | "OPENAI_BASE_URL"
  | "OPENAI_API_KEY"
  | "OPENAI_MAX_RETRIES"
  | "REVIEW_MODEL"
  | "REVIEW_TIMEOUT_MS"
  | "REVIEW_TOOL_CALLS"
  | "REVIEW_MAX_FETCH_BYTES"
  | "REVIEW_PRICE_INPUT"
  | "REVIEW_PRICE_OUTPUT";

/** The name a reader sets `setting` by here, or null when it cannot be set here. */
export type SettingNames = (setting: Setting) => string | null;

/** The App's and the CLI's words: the environment variable itself. */
export const ENVIRONMENT_NAMES: SettingNames = (setting) => setting;

/** `name` in backticks, or `fallback` when the setting has no name here. */
export function settingCode(names: SettingNames, setting: Setting, fallback = ""): string {
  const name = names(setting);
  return name === null ? fallback : `\`${name}\``;
}
