// GitLab's settings checked against the instance once at start, so a misconfiguration is one line
// naming its setting rather than a failed review later: the URL must answer GitLab's API, the
// token must be accepted, and carry the `api` scope (a read_api token cannot publish). An instance
// that is down is not a misconfiguration: the process starts and says so.

import { type GitLabApi, GitLabError } from "./gitlab-api.ts";

export type GitLabAccess =
  | { readonly kind: "ok"; readonly username: string }
  | { readonly kind: "invalid"; readonly line: string }
  | { readonly kind: "unreachable"; readonly line: string };

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
    const token = await api.get<TokenSelf>("/personal_access_tokens/self");
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
    const detail = error instanceof Error ? error.message : String(error);
    return {
      kind: "unreachable",
      line: `GITLAB_URL=${url} cannot be reached now (${detail}); reviews wait for it`,
    };
  }
}
