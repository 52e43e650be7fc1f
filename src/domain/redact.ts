// Removes credentials from any text before it is logged or published. Patterns cover GitHub
// tokens, OpenAI-style keys, HTTP authorization values and credentials embedded in URLs.

const SECRET_PATTERNS: readonly RegExp[] = [
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{16,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bv1\.[0-9a-f]{40}\b/g,
  /\bsk-[A-Za-z0-9_-]{16,}\b/g,
  /\b(Bearer|Basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /(\/\/)[^/\s:@]+:[^/\s@]+@/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

// Each registered value with the number of holders still using it: an installation token is
// shared by every review of that installation while it is valid, so one review ending must not
// stop its redaction for another still running, and none may keep it once all have ended.
const extraSecrets = new Map<string, number>();

/**
 * Registers a secret value (an API key, a token) so that it is redacted wherever it appears, until
 * the returned release is called (once; later calls do nothing). Process-wide secrets, like the
 * provider's API key, are simply never released.
 */
export function registerSecret(value: string | undefined): () => void {
  if (value === undefined || value.length < 6) return () => {};
  extraSecrets.set(value, (extraSecrets.get(value) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const holders = (extraSecrets.get(value) ?? 1) - 1;
    if (holders > 0) extraSecrets.set(value, holders);
    else extraSecrets.delete(value);
  };
}

/** How many distinct values are registered (for tests that check nothing is kept). */
export function registeredSecretCount(): number {
  return extraSecrets.size;
}

export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of extraSecrets.keys()) out = out.split(secret).join("[REDACTED]");
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (match, first: string | undefined) => {
      if (first === "//") return "//[REDACTED]@";
      if (first !== undefined && /^(bearer|basic|token)$/i.test(first)) return `${first} [REDACTED]`;
      return match.startsWith("-----") ? "[REDACTED PRIVATE KEY]" : "[REDACTED]";
    });
  }
  return out;
}
