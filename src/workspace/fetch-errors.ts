// Turns whatever isomorphic-git or the network threw into one typed LoupeError. isomorphic-git's
// own texts are not passed on: a refused commit shows as "Could not find <sha>", which sounds like
// a local bug, and HTTP errors may quote a server's body.

import { LoupeError } from "../domain/errors.ts";

export interface FetchFailureContext {
  /** What was being fetched, for the message: "the head commit 1234…". */
  readonly what: string;
  /** The caller's own signal (abort) and the combined one (abort or timeout). */
  readonly callerSignal?: AbortSignal;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
}

interface ErrorShape {
  readonly code?: unknown;
  readonly name?: unknown;
  readonly data?: { readonly statusCode?: unknown };
}

export function classifyFetchError(error: unknown, context: FetchFailureContext): LoupeError {
  // A transfer cut by the signal can end like an empty pack, so a commit found missing after the
  // signal fired is the abort's doing, not the server's: report the abort or the timeout.
  const missingAfterAbort =
    error instanceof LoupeError && error.code === "git_commit_unreachable" && context.signal.aborted;
  if (error instanceof LoupeError && !missingAfterAbort) return error;
  if (context.callerSignal?.aborted === true) {
    return new LoupeError("git_aborted", `fetching ${context.what} was aborted`, { cause: error });
  }
  if (context.signal.aborted) {
    return new LoupeError(
      "git_timeout",
      `fetching ${context.what} took longer than ${context.timeoutMs} ms`,
      {
        cause: error,
      },
    );
  }
  return classifyCause(error, context.what);
}

/** True when the server simply did not send the commit (as opposed to auth or network trouble). */
export function isUnreachableFailure(error: unknown): boolean {
  return error instanceof LoupeError
    ? error.code === "git_commit_unreachable"
    : classifyCause(error, "").code === "git_commit_unreachable";
}

function classifyCause(error: unknown, what: string): LoupeError {
  const context = { what };
  const shape = (typeof error === "object" && error !== null ? error : {}) as ErrorShape;
  const code = typeof shape.code === "string" ? shape.code : "";
  if (code === "HttpError") {
    const status = Number(shape.data?.statusCode);
    if (status === 401 || status === 403) {
      return new LoupeError(
        "git_authentication_failed",
        `the git server refused access (HTTP ${status}) while fetching ${context.what}`,
        { cause: error },
      );
    }
    if (status === 404) {
      return new LoupeError(
        "git_repository_invalid",
        `the git server has no such repository, or the token cannot see it (HTTP 404), while fetching ${context.what}`,
        { cause: error },
      );
    }
    return new LoupeError(
      "git_network_failed",
      `the git server answered HTTP ${status} while fetching ${context.what}`,
      {
        cause: error,
      },
    );
  }
  if (code === "NotFoundError" || code === "UnknownTransportError" || /not our ref/.test(String(error))) {
    return unreachable(context.what, error);
  }
  if (code === "SmartHttpError" || code === "ParseError" || code === "RemoteCapabilityError") {
    return new LoupeError(
      "git_network_failed",
      `the server's answer is not a usable git response (${code}) for ${context.what}`,
      {
        cause: error,
      },
    );
  }
  const networkCode = typeof code === "string" && /^E[A-Z]+$/.test(code) ? ` (${code})` : "";
  return new LoupeError(
    "git_network_failed",
    `the network failed while fetching ${context.what}${networkCode}`,
    {
      cause: error,
    },
  );
}

export function unreachable(what: string, cause?: unknown): LoupeError {
  return new LoupeError(
    "git_commit_unreachable",
    `the git server did not send ${what}: it is not reachable from any ref it advertises (force-pushed away, or never pushed)`,
    cause === undefined ? undefined : { cause },
  );
}
