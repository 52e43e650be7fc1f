// The installation token travels only as an Authorization header, and only to the origin
// (scheme, host and port) of the configured repository URL. It is never put in a remote URL,
// because isomorphic-git writes the remote URL into the repository's config file.

import { LoupeError } from "../domain/errors.ts";

/**
 * GitHub's documented form for an installation token over git smart HTTP. Whoever obtained the
 * token registers it for redaction for as long as they hold it (redact.ts).
 */
export function authorizationHeader(token: string): string {
  return `Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
}

/** Parses a repository URL for fetching; refuses embedded credentials, queries and other schemes. */
export function parseRemoteUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new LoupeError("usage_invalid", "the repository URL is not a valid URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new LoupeError("usage_invalid", "the repository URL must use http or https");
  }
  if (url.username !== "" || url.password !== "") {
    throw new LoupeError(
      "usage_invalid",
      "the repository URL must not contain credentials (pass the token separately)",
    );
  }
  if (url.search !== "" || url.hash !== "") {
    throw new LoupeError("usage_invalid", "the repository URL must not have a query or fragment");
  }
  return url;
}

/** The request may carry credentials only if it goes to the configured origin. */
export function mayCarryToken(requestUrl: string, origin: string): boolean {
  try {
    return new URL(requestUrl).origin === origin;
  } catch {
    return false;
  }
}
