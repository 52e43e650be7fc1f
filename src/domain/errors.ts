// A small error hierarchy for infrastructure and misconfiguration (everything the model or a
// repository can cause is an outcome value instead). Messages are redacted when the error is
// built, so a token that slipped into a message can never reach a log line or a check run.

import { WORKER_STOP_REASONS } from "./outcome.ts";
import { redactSecrets } from "./redact.ts";

export const LOUPE_ERROR_CODES = [
  "configuration_invalid",
  "usage_invalid",
  "git_commit_unreachable",
  "git_authentication_failed",
  "git_network_failed",
  "git_timeout",
  "git_aborted",
  "git_repository_invalid",
  "git_repository_too_large",
  // A commit's tree past the walk's bounds (workspace/snapshot-bounds.ts): a skip, like the above.
  "git_tree_too_large",
  "github_request_failed",
  // A port whose worker thread was stopped (src/isolation), when no loop result can say so.
  ...WORKER_STOP_REASONS,
] as const;

export type LoupeErrorCode = (typeof LOUPE_ERROR_CODES)[number];

export function isLoupeErrorCode(value: unknown): value is LoupeErrorCode {
  return typeof value === "string" && (LOUPE_ERROR_CODES as readonly string[]).includes(value);
}

export class LoupeError extends Error {
  readonly code: LoupeErrorCode;

  constructor(code: LoupeErrorCode, message: string, options?: { cause?: unknown }) {
    super(redactSecrets(message), options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LoupeError";
    this.code = code;
  }
}

export function isLoupeError(value: unknown, code?: LoupeErrorCode): value is LoupeError {
  return value instanceof LoupeError && (code === undefined || value.code === code);
}
