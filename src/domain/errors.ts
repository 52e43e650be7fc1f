// A small error hierarchy for infrastructure and misconfiguration (everything the model or a
// repository can cause is an outcome value instead). Messages are redacted when the error is
// built, so a token that slipped into a message can never reach a log line or a check run.

import { redactSecrets } from "./redact.ts";

export type LoupeErrorCode =
  | "configuration_invalid"
  | "usage_invalid"
  | "git_commit_unreachable"
  | "git_authentication_failed"
  | "git_network_failed"
  | "git_timeout"
  | "git_aborted"
  | "git_repository_invalid"
  | "git_repository_too_large"
  | "github_request_failed";

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
