// GitLab's settings checked against the instance once at start, so a misconfiguration is one line
// naming its setting rather than a failed review later: the URL must answer GitLab's API, the
// token must be accepted, and carry the `api` scope (a read_api token cannot publish). An instance
// that is down is not a misconfiguration: the process starts and says so.

import type { GitLabConfig } from "../../config/gitlab-config.ts";
import { tlsCode } from "../../domain/error-kind.ts";
import type { StartCheck } from "../../forge/forge.ts";
import type { Logger } from "../../log/job-logger.ts";
import { type GitLabApi, GitLabError, gitLabApi, NO_RETRY } from "./gitlab-api.ts";

/** GitLab's settings, and a certificate the check at start did not trust (served down: /readyz says why). */
export type GitLabSetup = NonNullable<GitLabConfig> & { readonly untrusted?: { readonly error: unknown } };

export type GitLabAccess =
  /** `tokenNote`: a token whose type GitLab would not describe (400 from /personal_access_tokens/self). */
  | { readonly kind: "ok"; readonly username: string; readonly tokenNote?: string }
  | { readonly kind: "invalid"; readonly line: string }
  | { readonly kind: "unreachable"; readonly line: string }
  /** A certificate Node does not trust: a setting to fix (NODE_EXTRA_CA_CERTS), not an outage. */
  | { readonly kind: "untrusted"; readonly line: string; readonly error: unknown };

interface TokenSelf {
  readonly scopes?: readonly string[];
}

export async function checkGitLabAccess(api: GitLabApi, url: string): Promise<GitLabAccess> {
  try {
    const user = await api.get<{ username?: unknown }>("/user");
    if (typeof user?.username !== "string")
      return {
        kind: "invalid",
        line: `GITLAB_URL=${url} does not answer as GitLab's API v4 does (GET /api/v4/user)`,
      };
    let token: TokenSelf;
    try {
      token = await api.get<TokenSelf>("/personal_access_tokens/self");
    } catch (error) {
      // Personal, project and group access tokens answer here; any other type (OAuth, a job's or
      // a deploy token) gets 400: its scopes cannot be read, so it is said and Loupe starts.
      if (!(error instanceof GitLabError && error.status === 400)) throw error;
      return {
        kind: "ok",
        username: user.username,
        tokenNote:
          "GITLAB_TOKEN is not a personal, project or group access token (GitLab answers 400 to GET /personal_access_tokens/self), " +
          "so its scopes are unknown: if reviews are not published, use such a token with the api scope",
      };
    }
    if (!(token.scopes ?? []).includes("api"))
      return {
        kind: "invalid",
        line: `GITLAB_TOKEN lacks the api scope (it has ${(token.scopes ?? []).join(", ") || "none"}): create a token with the api scope`,
      };
    return { kind: "ok", username: user.username };
  } catch (error) {
    if (error instanceof GitLabError && (error.status === 401 || error.status === 403))
      return {
        kind: "invalid",
        line: `GITLAB_TOKEN is not accepted by ${url} (${error.status}): it is revoked, expired or mistyped`,
      };
    if (error instanceof GitLabError && error.status === 404)
      return {
        kind: "invalid",
        line: `GITLAB_URL=${url} has no GitLab API at /api/v4: set the instance's address`,
      };
    const tls = tlsCode(error);
    if (tls !== null)
      return {
        kind: "untrusted",
        error,
        line:
          `GITLAB_URL=${url} presents a TLS certificate Loupe does not trust (${tls}): ` +
          "set NODE_EXTRA_CA_CERTS to a file with the instance's CA certificate (PEM) and start Loupe again (docs/gitlab.md)",
      };
    const detail = error instanceof Error ? error.message : String(error);
    return {
      kind: "unreachable",
      line: `GITLAB_URL=${url} cannot be reached now (${detail}); reviews wait for it`,
    };
  }
}

/** GitLab's settings checked against the instance: a wrong one stops the process, the rest is said. */
export async function gitLabStartCheck(gitlab: GitLabSetup, log: Logger): Promise<StartCheck<GitLabSetup>> {
  const access = await checkGitLabAccess(
    gitLabApi({ url: gitlab.url, token: gitlab.token, retry: NO_RETRY }),
    gitlab.url,
  );
  if (access.kind === "invalid") return { stop: access.line };
  if (access.kind === "unreachable") log.warn({}, access.line);
  if (access.kind === "ok") {
    log.info({ gitlab: gitlab.url, user: access.username }, `GitLab: the token is @${access.username}'s`);
    if (access.tokenNote !== undefined) log.warn({}, access.tokenNote);
  }
  // Served all the same (the GitHub App may be served too), and /readyz says why it is not ready.
  if (access.kind !== "untrusted") return { serve: gitlab };
  log.error({}, access.line);
  return { serve: { ...gitlab, untrusted: { error: access.error } } };
}
