// One publishable sentence for an error: a Loupe code, the forge's HTTP status, or the network
// failure that kept the forge from answering (Octokit reports a refused connection as a status 500,
// which read as "answered HTTP 500" when the forge never answered), never a message (provider
// bodies, paths and tokens never reach a report or a review). `forge` names it in the forge's own
// words; the host is the forge's API host.

import { type ErrorKind, errorKind } from "../domain/error-kind.ts";
import { isLoupeError } from "../domain/errors.ts";
import { httpStatus } from "../domain/http-status.ts";

const NETWORK: Partial<Record<ErrorKind, string>> = {
  connection_refused: "connection refused",
  connection_reset: "connection reset",
  dns: "host name not found",
  unreachable: "network unreachable",
  tls: "TLS handshake failed",
  timeout: "no answer in time",
};

function requestHost(error: unknown): string | null {
  const url = (error as { request?: { url?: unknown } } | null)?.request?.url;
  if (typeof url !== "string") return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

export function describeFailure(error: unknown, forge: string): string {
  if (isLoupeError(error)) return `Loupe stopped with \`${error.code}\`.`;
  const network = NETWORK[errorKind(error)];
  if (network !== undefined) {
    const host = requestHost(error);
    return `${forge} did not answer: ${network}${host === null ? "" : ` to \`${host}\``}.`;
  }
  const status = httpStatus(error);
  if (status !== undefined) return `${forge} answered HTTP ${status}.`;
  return "An unexpected internal error occurred.";
}
