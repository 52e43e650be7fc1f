// Building and serialising tool results. The size cap is checked on the final JSON string (after
// escaping: a line of quotes or control characters can double or sextuple in size), so no
// result can reach the model above the cap however its fields were bounded before.

import type { ToolErrorCode, ToolFailure, ToolResult } from "./types.ts";

export function failure(code: ToolErrorCode, message: string): ToolFailure {
  return { ok: false, error: { code, message } };
}

export function isFailure(value: unknown): value is ToolFailure {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false;
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Size of `text` once embedded in JSON as a string value, without its quotes. */
export function jsonStringLength(text: string): number {
  return utf8Length(JSON.stringify(text)) - 2;
}

export interface SerializedResult {
  readonly result: ToolResult;
  readonly content: string;
}

export function serializeResult(result: ToolResult, maxBytes: number): SerializedResult {
  const content = JSON.stringify(result);
  if (utf8Length(content) <= maxBytes) return { result, content };
  const tooLarge = failure(
    "result_too_large",
    `The result exceeds ${maxBytes} bytes once serialized; narrow the request.`,
  );
  return { result: tooLarge, content: JSON.stringify(tooLarge) };
}
