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

const extraSecrets = new Set<string>();

/** Registers a secret value (an API key, a token) so that it is redacted wherever it appears. */
export function registerSecret(value: string | undefined): void {
  if (value !== undefined && value.length >= 6) extraSecrets.add(value);
}

export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of extraSecrets) out = out.split(secret).join("[REDACTED]");
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (match, first: string | undefined) => {
      if (first === "//") return "//[REDACTED]@";
      if (first !== undefined && /^(bearer|basic|token)$/i.test(first)) return `${first} [REDACTED]`;
      return match.startsWith("-----") ? "[REDACTED PRIVATE KEY]" : "[REDACTED]";
    });
  }
  return out;
}
