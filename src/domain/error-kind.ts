// What kind of failure a dependency's error is, as a small closed set: the `kind` label of
// loupe_dependency_errors_total and the word an operator greps the log for. Node's socket codes,
// HTTP statuses (Octokit's and the provider's errors carry `status`) and aborts are told apart;
// anything else is "other", so no message text ever becomes a label value.

export const ERROR_KINDS = [
  "connection_refused",
  "connection_reset",
  "dns",
  "unreachable",
  "tls",
  "timeout",
  "rate_limited",
  "server_error",
  "client_error",
  "invalid_response",
  "other",
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

const CODE_KINDS: Readonly<Record<string, ErrorKind>> = {
  ECONNREFUSED: "connection_refused",
  ECONNRESET: "connection_reset",
  EPIPE: "connection_reset",
  ENOTFOUND: "dns",
  EAI_AGAIN: "dns",
  ETIMEDOUT: "timeout",
  ESOCKETTIMEDOUT: "timeout",
  UND_ERR_CONNECT_TIMEOUT: "timeout",
  UND_ERR_SOCKET: "connection_reset",
  // A certificate Node does not trust (a self-signed or internal CA: NODE_EXTRA_CA_CERTS), or one
  // for another name or out of date: OpenSSL's verification codes, as Node's TLS errors carry them.
  DEPTH_ZERO_SELF_SIGNED_CERT: "tls",
  SELF_SIGNED_CERT_IN_CHAIN: "tls",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "tls",
  UNABLE_TO_GET_ISSUER_CERT: "tls",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "tls",
  CERT_HAS_EXPIRED: "tls",
  CERT_NOT_YET_VALID: "tls",
  CERT_UNTRUSTED: "tls",
  ERR_TLS_CERT_ALTNAME_INVALID: "tls",
  EPROTO: "tls",
};

/** The code of a TLS verification failure in an error or its causes (e.g. SELF_SIGNED_CERT_IN_CHAIN), or null. */
export function tlsCode(error: unknown, depth = 3): string | null {
  const code = property(error, "code");
  if (typeof code === "string" && CODE_KINDS[code] === "tls") return code;
  const cause = property(error, "cause");
  return cause === undefined || depth <= 0 ? null : tlsCode(cause, depth - 1);
}

function property(error: unknown, name: string): unknown {
  return error !== null && typeof error === "object" ? (error as Record<string, unknown>)[name] : undefined;
}

export function statusKind(status: number): ErrorKind {
  if (status === 429) return "rate_limited";
  if (status >= 500) return "server_error";
  return "client_error";
}

export function errorKind(error: unknown, depth = 3): ErrorKind {
  const code = property(error, "code");
  if (typeof code === "string" && CODE_KINDS[code] !== undefined) return CODE_KINDS[code];
  // fetch and Octokit wrap the socket's error (Octokit as a status 500): the cause says more.
  const inner = [property(error, "cause"), ...arrayOf(property(error, "errors")).slice(0, 1)];
  for (const cause of inner) {
    const kind = cause === undefined || depth <= 0 ? "other" : errorKind(cause, depth - 1);
    if (kind !== "other") return kind;
  }
  const status = property(error, "status");
  if (typeof status === "number" && status >= 400) return statusKind(status);
  const name = property(error, "name");
  return name === "TimeoutError" || name === "AbortError" ? "timeout" : "other";
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
