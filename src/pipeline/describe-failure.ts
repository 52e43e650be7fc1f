// One publishable sentence for an error: a Loupe code or GitHub's HTTP status, never a message
// (provider bodies, paths and tokens never reach a check run or a review).

import { isLoupeError } from "../domain/errors.ts";
import { httpStatus } from "../domain/http-status.ts";

export function describeFailure(error: unknown): string {
  if (isLoupeError(error)) return `Loupe stopped with \`${error.code}\`.`;
  const status = httpStatus(error);
  if (status !== undefined) return `GitHub answered HTTP ${status}.`;
  return "An unexpected internal error occurred.";
}
