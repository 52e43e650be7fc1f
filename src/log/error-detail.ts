// What went wrong, for the operator's log: the check run and the pull request only ever say a
// short public reason (jobs/ending-texts.ts), so the log is where an operator learns why. One line,
// redacted, bounded: the error's class and message, GitHub's status and the request it answered,
// the first frames of an unexpected error's stack, and the cause it wraps.

import { LoupeError } from "../domain/errors.ts";
import { httpStatus } from "../domain/http-status.ts";
import { redactSecrets } from "../domain/redact.ts";
import { cutCodePoints } from "../domain/text.ts";

const MAX_DETAIL_CHARS = 1_000;
const STACK_FRAMES = 3;
const CAUSE_DEPTH = 2;

export function errorDetail(error: unknown): string {
  const detail = redactSecrets(describe(error, CAUSE_DEPTH)).replace(/\s*\n\s*/g, " | ");
  return detail.length <= MAX_DETAIL_CHARS ? detail : `${cutCodePoints(detail, MAX_DETAIL_CHARS)}…`;
}

function describe(error: unknown, depth: number): string {
  if (!(error instanceof Error)) return `thrown ${typeof error}: ${printable(error)}`;
  const parts = [headline(error)];
  if (!(error instanceof LoupeError) && httpStatus(error) === undefined) {
    const frames = stackFrames(error);
    if (frames.length > 0) parts.push(`at ${frames.join(" < ")}`);
  }
  if (depth > 0 && error.cause !== undefined) parts.push(`caused by ${describe(error.cause, depth - 1)}`);
  return parts.join("; ");
}

function headline(error: Error): string {
  if (error instanceof LoupeError) return `${error.code}: ${error.message}`;
  const status = httpStatus(error);
  if (status !== undefined) {
    const request = (error as { request?: { method?: unknown; url?: unknown } }).request;
    const target =
      typeof request?.method === "string" && typeof request.url === "string"
        ? ` ${request.method} ${request.url}`
        : "";
    return `HTTP ${status}${target}: ${error.message}`;
  }
  return `${error.name}: ${error.message}`;
}

function stackFrames(error: Error): string[] {
  return (error.stack ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("at "))
    .slice(0, STACK_FRAMES)
    .map((line) => line.slice(3));
}

/** String(value), or a placeholder for a value that cannot say what it is (a null prototype). */
function printable(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "(unprintable)";
  }
}
