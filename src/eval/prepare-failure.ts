// Why `loupe eval prepare` could not resolve a pull request, in words a person acts on: which pull
// request, which host, and what to set. Pure: the error and where it happened in, a sentence out.

import { type ErrorKind, errorKind } from "../domain/error-kind.ts";

export interface FailedRequest {
  /** The pull request's URL, as the golden file lists it. */
  readonly pull: string;
  /** The API's host (and port), e.g. `api.github.com`. */
  readonly host: string;
  readonly error: unknown;
}

export interface PrepareFailure {
  readonly kind: ErrorKind;
  /** A server error is asked again (after a pause); anything else stops the run at once. */
  readonly retry: boolean;
  readonly message: string;
}

const NETWORK =
  "check the network; behind a proxy, set HTTPS_PROXY and NODE_USE_ENV_PROXY=1; for GitHub Enterprise, set GITHUB_API_URL";

const field = (value: unknown, name: string): unknown =>
  value !== null && typeof value === "object" ? (value as Record<string, unknown>)[name] : undefined;

function header(error: unknown, name: string): string | undefined {
  const value = field(field(field(error, "response"), "headers"), name);
  return typeof value === "string" ? value : undefined;
}

function rateLimited(error: unknown): boolean {
  const status = field(error, "status");
  return status === 429 || (status === 403 && header(error, "x-ratelimit-remaining") === "0");
}

function resetTime(error: unknown): string {
  const reset = Number(header(error, "x-ratelimit-reset"));
  if (!Number.isFinite(reset) || reset <= 0) return "";
  return ` (it resets at ${new Date(reset * 1000).toISOString().slice(11, 16)} UTC)`;
}

/** The innermost cause's message: fetch says "fetch failed", its cause says why. */
function rootCause(error: unknown): string {
  let inner = error;
  for (let depth = 0; depth < 4 && field(inner, "cause") !== undefined; depth++)
    inner = field(inner, "cause");
  return inner instanceof Error ? inner.message : String(inner);
}

function kindOf(error: unknown): ErrorKind {
  if (rateLimited(error)) return "rate_limited";
  const kind = errorKind(error);
  // Octokit reports a request that got no answer at all as a status 500: it is the network.
  return kind === "server_error" && field(error, "response") === undefined ? "unreachable" : kind;
}

export function describeFailure({ pull, host, error }: FailedRequest): PrepareFailure {
  const kind = kindOf(error);
  const status = field(error, "status");
  const stop = (message: string): PrepareFailure => ({ kind, retry: false, message: `${pull}: ${message}` });
  switch (kind) {
    case "dns":
      return stop(`cannot resolve ${host} (DNS): ${NETWORK}`);
    case "connection_refused":
      return stop(`${host} refused the connection: ${NETWORK}`);
    case "connection_reset":
    case "unreachable":
    case "tls":
      return stop(`the connection to ${host} failed (${rootCause(error)}): ${NETWORK}`);
    case "timeout":
      return stop(`${host} did not answer in time: ${NETWORK}`);
    case "rate_limited":
      return stop(
        `${host}'s rate limit is spent${resetTime(error)}: set GITHUB_TOKEN (5,000 requests an hour instead of 60), or run again after the reset`,
      );
    case "server_error":
      return { kind, retry: true, message: `${pull}: ${host} answered HTTP ${String(status)}` };
    default:
      break;
  }
  if (status === 401) return stop(`${host} refused GITHUB_TOKEN (HTTP 401): set a valid token, or none`);
  if (status === 404 || status === 403)
    return stop(
      `${host} answered HTTP ${status}: a private or deleted pull request? set GITHUB_TOKEN to a token that can read it`,
    );
  const detail = error instanceof Error ? error.message : String(error);
  return stop(`the request to ${host} failed: ${detail}`);
}
