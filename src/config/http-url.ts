// An API address read from the environment (GITHUB_API_URL, GITHUB_SERVER_URL): an absolute
// http(s) URL, the trailing slash dropped. A wrong one is refused naming the variable and the
// value found, never as a bare "Invalid URL".

import { LoupeError } from "../domain/errors.ts";

export function httpUrl(name: string, text: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new LoupeError(
      "configuration_invalid",
      `${name} must be an absolute http(s) URL (found ${JSON.stringify(text)})`,
    );
  }
  return text.replace(/\/+$/, "");
}
