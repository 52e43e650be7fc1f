// A failed provider attempt as a dependency error kind (loupe_dependency_errors_total{dependency=
// "provider"}): what happened below HTTP, else the status class, else an answer Loupe could not
// use. A cancelled review or one out of time is not the provider's failure and is not counted.

import { type ErrorKind, statusKind } from "../domain/error-kind.ts";
import type { AttemptFailure } from "./classify-failure.ts";

export function providerFailureKind(failure: AttemptFailure): ErrorKind | null {
  if (failure.reason === "cancelled" || failure.reason === "review_timeout") return null;
  if (failure.network !== undefined) return failure.network;
  if (failure.status !== undefined) return statusKind(failure.status);
  if (failure.reason === "invalid_model_response" || failure.reason === "upstream_response_too_large")
    return "invalid_response";
  return "other";
}
