// The port between the loop and a chat-completions provider. The loop hands over the exact
// request body and gets back either the parsed JSON exactly as received, or a classified
// failure that carries no provider text at all (bodies, headers and keys never leave the client).

import type { ToolSchemaForModel } from "../tools/types.ts";
import type { ProviderWait } from "./provider-gate.ts";

/** A message as sent to the provider. Assistant messages are replayed verbatim, so any field. */
export type ChatMessage = Readonly<Record<string, unknown>> & { readonly role: string };

export interface ChatRequestBody {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  /** Absent in text tool-call mode: some servers refuse a request that carries them. */
  readonly tools?: readonly ToolSchemaForModel[];
  readonly tool_choice?: "auto" | "none";
}

export type ProviderFailureReason =
  | "provider_authentication_failed"
  | "provider_rate_limited"
  | "provider_request_rejected"
  | "provider_unavailable"
  | "upstream_response_too_large"
  | "review_timeout"
  | "cancelled"
  // Additive: a 2xx answer whose body is not JSON at all (e.g. an HTML page from a proxy).
  | "invalid_model_response";

/** A failure below HTTP, named from the system error code. */
export type NetworkFailure = "connection_refused" | "dns" | "connection_reset" | "unreachable" | "tls";

/** What an operator needs to fix a provider failure: the host they configured, the HTTP status or
 * the network failure. Never the provider's body or headers. */
export interface ProviderFailureDetail {
  /** host[:port] of OPENAI_BASE_URL (no path, no credentials). */
  readonly host: string;
  readonly status?: number;
  readonly network?: NetworkFailure;
  /** A 2xx answer that was not JSON: an HTML page (a website, a login page) or anything else. */
  readonly answer?: NonJsonAnswer;
  /** Whole seconds Loupe waited for an answer that never came (the review's time ran out). */
  readonly waited_seconds?: number;
}

export type NonJsonAnswer = "html" | "not_json";

export type ProviderOutcome =
  | { kind: "response"; body: unknown }
  | {
      kind: "failure";
      reason: ProviderFailureReason;
      retryAfterSeconds?: number;
      status?: number;
      network?: NetworkFailure;
      host?: string;
      answer?: NonJsonAnswer;
      waitedSeconds?: number;
      /** A 400/422 whose error names `tools` or `tool_choice`: the endpoint takes no native calls. */
      toolsRejected?: boolean;
    };

export interface ChatProvider {
  complete(
    body: ChatRequestBody,
    options: {
      signal: AbortSignal;
      deadline: number;
      /** Told when the request waits for its share of the provider (the fleet's gate). */
      onWait?: (wait: ProviderWait) => void;
    },
  ): Promise<ProviderOutcome>;
}
