// Exchanges the one-time code GitHub hands back after registration for the App's credentials
// (POST /app-manifests/{code}/conversions, no authentication: the code is the credential; it
// works once, within an hour). The answer is checked before anything is written.

import * as v from "valibot";
import { LoupeError } from "../domain/errors.ts";
import { registerSecret } from "../domain/redact.ts";

const Conversion = v.object({
  id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  slug: v.string(),
  name: v.string(),
  html_url: v.pipe(v.string(), v.url()),
  pem: v.pipe(v.string(), v.startsWith("-----BEGIN")),
  webhook_secret: v.pipe(v.string(), v.minLength(1)),
  owner: v.nullish(v.object({ login: v.string() })),
});

export type RegisteredApp = v.InferOutput<typeof Conversion>;

export interface ConversionOptions {
  /** e.g. https://api.github.com or https://ghe.example.com/api/v3 */
  readonly apiBaseUrl: string;
  readonly code: string;
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
}

export function apiBaseUrl(env: Readonly<Record<string, string | undefined>>): string {
  return env.GHE_HOST === undefined
    ? "https://api.github.com"
    : `${env.GHE_PROTOCOL ?? "https"}://${env.GHE_HOST}/api/v3`;
}

export async function convertManifestCode(options: ConversionOptions): Promise<RegisteredApp> {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(options.code)) {
    throw new LoupeError("usage_invalid", "GitHub's code is missing or malformed: register the App again");
  }
  const url = `${options.apiBaseUrl}/app-manifests/${options.code}/conversions`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: "POST",
      headers: { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" },
      signal: options.signal ?? AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new LoupeError(
      "github_request_failed",
      `${new URL(url).host} could not be reached to finish the registration: ${String(error)}`,
    );
  }
  if (response.status === 404 || response.status === 422) {
    await response.body?.cancel();
    throw new LoupeError(
      "github_request_failed",
      `GitHub did not accept the code (HTTP ${response.status}): codes work once and for one hour; register the App again`,
    );
  }
  if (response.status !== 201 && response.status !== 200) {
    await response.body?.cancel();
    throw new LoupeError(
      "github_request_failed",
      `GitHub answered the code conversion with HTTP ${response.status}`,
    );
  }
  const parsed = v.safeParse(Conversion, await response.json().catch(() => null));
  if (!parsed.success) {
    throw new LoupeError(
      "github_request_failed",
      "GitHub's answer to the code conversion lacks the App's credentials",
    );
  }
  registerSecret(parsed.output.webhook_secret);
  return parsed.output;
}
