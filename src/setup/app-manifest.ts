// The GitHub App manifest the setup page posts to GitHub: app.yml (name, events, permissions)
// plus what only this installation knows: the webhook URL and where GitHub sends the browser
// back with the code. Pure; the page renders it.

import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { LoupeError } from "../domain/errors.ts";

export const APP_YML = path.resolve(import.meta.dirname, "..", "..", "app.yml");
export const CALLBACK_PATH = "/setup/callback";

export type AppYml = Readonly<Record<string, unknown>>;

export function readAppYml(file = APP_YML): AppYml {
  const data: unknown = parse(fs.readFileSync(file, "utf8"));
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new LoupeError("configuration_invalid", `${file} must be a mapping (the App manifest)`);
  }
  return data as AppYml;
}

export interface ManifestInput {
  readonly appYml: AppYml;
  readonly hookUrl: string;
  /** This setup server as the operator's browser reaches it, e.g. http://localhost:3000. */
  readonly setupBaseUrl: string;
}

export function buildManifest(input: ManifestInput): Record<string, unknown> {
  return {
    ...input.appYml,
    hook_attributes: { url: input.hookUrl, active: true },
    redirect_url: `${input.setupBaseUrl}${CALLBACK_PATH}`,
    public: input.appYml.public === true, // private unless app.yml says otherwise
  };
}

/** Where the manifest is posted: the user's or the organisation's "new App" page. */
export function createAppUrl(
  env: Readonly<Record<string, string | undefined>>,
  state: string,
  org: string | null = env.GH_ORG ?? null,
): string {
  const origin = `${env.GHE_PROTOCOL ?? "https"}://${env.GHE_HOST ?? "github.com"}`;
  const owner = org === null ? "" : `/organizations/${encodeURIComponent(org)}`;
  return `${origin}${owner}/settings/apps/new?state=${encodeURIComponent(state)}`;
}
