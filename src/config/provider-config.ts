// Where the model lives and how Loupe talks to it. The API key is registered as a secret the
// moment it is read, so it is redacted from anything that might echo it later.

import { LoupeError } from "../domain/errors.ts";
import { registerSecret } from "../domain/redact.ts";
import { readPositiveInteger } from "./env-integer.ts";
import { DEFAULT_REVIEW_LIMITS, HARD_CAPS } from "./review-limits.ts";

export interface ProviderConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  maxResponseBytes: number;
  maxRetries: number;
  /** How tool calls travel: native function calls, markers in the model's text, or native first. */
  toolCalls: ToolCallMode;
}

/**
 * `native`: the request carries `tools`. `text`: no `tools`; the system message lists the tools
 * and the marker form, for endpoints without a tool-call template. `auto`: native first, text as
 * soon as the provider refuses `tools` or answers the first turn with markers.
 */
export const TOOL_CALL_MODES = ["native", "text", "auto"] as const;
export type ToolCallMode = (typeof TOOL_CALL_MODES)[number];
export const DEFAULT_TOOL_CALL_MODE: ToolCallMode = "auto";

export const DEFAULT_MODEL = "deepseek-v4-flash";
export const DEFAULT_MAX_RETRIES = 2;
export const MAX_RETRIES_CAP = 6;

type Env = NodeJS.ProcessEnv | Record<string, string | undefined>;

export function readProviderConfig(env: Env): ProviderConfig {
  const apiKey = (env.OPENAI_API_KEY ?? "").trim();
  if (apiKey === "") throw new LoupeError("configuration_invalid", "OPENAI_API_KEY is required");
  if (/\s/.test(apiKey))
    throw new LoupeError("configuration_invalid", "OPENAI_API_KEY must not contain whitespace");
  registerSecret(apiKey);
  const model = (env.REVIEW_MODEL ?? "").trim() || DEFAULT_MODEL;
  if (!/^[A-Za-z0-9._:/@-]{1,200}$/.test(model)) {
    throw new LoupeError("configuration_invalid", "REVIEW_MODEL must be a model name without spaces");
  }
  return {
    baseURL: readBaseUrl(env.OPENAI_BASE_URL),
    apiKey,
    model,
    maxResponseBytes: readPositiveInteger(
      env,
      "REVIEW_MAX_RESPONSE_BYTES",
      DEFAULT_REVIEW_LIMITS.maxResponseBytes,
      HARD_CAPS.maxResponseBytes,
    ),
    // 0 is meaningful here (no retry), so it is read as "retries + 1" attempts would be awkward:
    // accept 0 explicitly, then the positive-integer rules.
    maxRetries:
      (env.OPENAI_MAX_RETRIES ?? "").trim() === "0"
        ? 0
        : readPositiveInteger(env, "OPENAI_MAX_RETRIES", DEFAULT_MAX_RETRIES, MAX_RETRIES_CAP),
    toolCalls: readToolCallMode(env.REVIEW_TOOL_CALLS),
  };
}

export function readToolCallMode(raw: string | undefined): ToolCallMode {
  const text = (raw ?? "").trim();
  if (text === "") return DEFAULT_TOOL_CALL_MODE;
  if ((TOOL_CALL_MODES as readonly string[]).includes(text)) return text as ToolCallMode;
  throw new LoupeError("configuration_invalid", "REVIEW_TOOL_CALLS must be native, text or auto");
}

function readBaseUrl(raw: string | undefined): string {
  const text = (raw ?? "").trim();
  if (text === "") {
    // No default: the API key must only ever go to an endpoint the operator chose.
    throw new LoupeError(
      "configuration_invalid",
      "OPENAI_BASE_URL is required: the OpenAI-compatible endpoint OPENAI_API_KEY belongs to, e.g. https://api.openai.com/v1 (docs/providers.md lists others)",
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new LoupeError("configuration_invalid", "OPENAI_BASE_URL must be an absolute http(s) URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new LoupeError("configuration_invalid", "OPENAI_BASE_URL must be an absolute http(s) URL");
  }
  if (url.username !== "" || url.password !== "") {
    // A key in the URL would travel into logs and error messages: it belongs in OPENAI_API_KEY.
    throw new LoupeError("configuration_invalid", "OPENAI_BASE_URL must not contain credentials");
  }
  return text.replace(/\/+$/, "");
}
