// The Octokit every GitHub call goes through: Probot's installation-scoped client (context.octokit)
// in the App, `@octokit/rest` in the GitHub Action. Only what both have is named here — the core
// (request, graphql, hook, auth), the REST methods and `paginate` — so either one fits.

import type { Octokit } from "@octokit/core";
import type { PaginateInterface } from "@octokit/plugin-paginate-rest";
import type { Api } from "@octokit/plugin-rest-endpoint-methods";

export type GitHubClient = Octokit & Api & { readonly paginate: PaginateInterface };

export interface RepoRef {
  readonly owner: string;
  readonly repo: string;
}

/** The HTTP status of an Octokit RequestError (or undefined for network and other failures). */
export { httpStatus } from "../../domain/http-status.ts";

export function responseHeader(error: unknown, name: string): string | undefined {
  const headers = (error as { response?: { headers?: Record<string, unknown> } } | null)?.response?.headers;
  const value = headers?.[name];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
}
