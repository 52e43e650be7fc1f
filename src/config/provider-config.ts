// Where the model lives and how Loupe talks to it. No endpoint and no model have a default: the
// key must only ever go to an endpoint the operator chose, and a model name belongs to one
// provider (another provider's default would fail the first review with a 404). The API key is
// registered as a secret the moment it is read, so it is redacted from anything that might echo it.

import * as v from "valibot";
import { registerSecret } from "../domain/redact.ts";
import { choiceVar, integerVar } from "./env-fields.ts";
import { REVIEW_MAX_RESPONSE_BYTES } from "./review-limits.ts";

/**
 * `native`: the request carries `tools`. `text`: no `tools`; the system message lists the tools
 * and the marker form, for endpoints without a tool-call template. `auto`: native first, text as
 * soon as the provider refuses `tools` or answers the first turn with markers.
 */
export const TOOL_CALL_MODES = ["native", "text", "auto"] as const;
export type ToolCallMode = (typeof TOOL_CALL_MODES)[number];

/** Why a base URL cannot be the endpoint's base, or null when it can. */
function baseUrlProblem(text: string): string | null {
  if (!URL.canParse(text)) return "is not an absolute URL: set e.g. https://api.openai.com/v1";
  const url = new URL(text);
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return "does not start with https:// or http://: set e.g. https://api.openai.com/v1";
  // A key in the URL would travel into logs and error messages: it belongs in OPENAI_API_KEY.
  if (url.username !== "" || url.password !== "")
    return "contains credentials: put the key in OPENAI_API_KEY";
  // The client appends /chat/completions itself; the full path would 404 at the first review.
  if (/\/chat\/completions\/*$/.test(url.pathname))
    return "ends with the request path: drop /chat/completions";
  return null;
}

const required = (name: string, what: string) =>
  v.pipe(v.optional(v.string(), ""), v.trim(), v.nonEmpty(`${name} is required: ${what}`));

export const ProviderConfigSchema = v.pipe(
  v.object({
    OPENAI_BASE_URL: v.pipe(
      required(
        "OPENAI_BASE_URL",
        "the OpenAI-compatible endpoint OPENAI_API_KEY belongs to, e.g. https://api.openai.com/v1 (docs/providers.md lists others)",
      ),
      v.check(
        (text) => baseUrlProblem(text) === null,
        (issue) => `OPENAI_BASE_URL ${baseUrlProblem(String(issue.input))}`,
      ),
      v.transform((text) => text.replace(/\/+$/, "")),
    ),
    OPENAI_API_KEY: v.pipe(
      required("OPENAI_API_KEY", "the API key of the provider at OPENAI_BASE_URL"),
      v.check((key) => !/\s/.test(key), "OPENAI_API_KEY contains whitespace: set the key alone"),
    ),
    REVIEW_MODEL: v.pipe(
      required(
        "REVIEW_MODEL",
        "the model's name at OPENAI_BASE_URL, e.g. gpt-4.1-mini (OpenAI) or deepseek-v4-flash (DeepSeek)",
      ),
      v.check(
        (model) => /^[A-Za-z0-9._:/@-]{1,200}$/.test(model),
        "REVIEW_MODEL is not a model name (at most 200 characters, no spaces): set the name the provider lists, e.g. gpt-4.1-mini",
      ),
    ),
    OPENAI_MAX_RETRIES: integerVar("OPENAI_MAX_RETRIES", 0, 6, 2),
    REVIEW_TOOL_CALLS: choiceVar("REVIEW_TOOL_CALLS", TOOL_CALL_MODES, "auto"),
    REVIEW_MAX_RESPONSE_BYTES,
  }),
  v.transform((env) => {
    registerSecret(env.OPENAI_API_KEY);
    return {
      baseURL: env.OPENAI_BASE_URL,
      apiKey: env.OPENAI_API_KEY,
      model: env.REVIEW_MODEL,
      maxResponseBytes: env.REVIEW_MAX_RESPONSE_BYTES,
      maxRetries: env.OPENAI_MAX_RETRIES,
      /** How tool calls travel: native function calls, markers in the model's text, or native first. */
      toolCalls: env.REVIEW_TOOL_CALLS as ToolCallMode,
    };
  }),
);

export type ProviderConfig = v.InferOutput<typeof ProviderConfigSchema>;
