// Query parameters that carry credentials in URLs people paste, proxies rewrite and browsers send:
// `?token=`, `access_token`, `client_secret`, an OAuth `code` and `state`, a presigned URL's
// `signature`... A log line keeps the parameter's name (what was asked) and never its value. The
// names are matched loosely on purpose: hiding a harmless value costs nothing, logging a key does.

const CREDENTIAL_NAME =
  /token|key|secret|passw|pwd|code|state|sig|auth|credential|session|cookie|jwt|otp|nonce|ticket/i;

/** `?name=value`, `&name=value` or `;name=value`, up to the next separator, space or quote. */
const PARAMETER = /([?&;])([^=&;?#\s"'<>]{1,200})=([^&;#\s"'<>]*)/g;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    return name;
  }
}

/** The text with the value of every credential-looking query parameter replaced by [REDACTED]. */
export function redactCredentialParams(text: string): string {
  if (!text.includes("=")) return text;
  return text.replace(PARAMETER, (whole, separator: string, name: string, value: string) =>
    value === "" || !CREDENTIAL_NAME.test(decodedName(name)) ? whole : `${separator}${name}=[REDACTED]`,
  );
}
