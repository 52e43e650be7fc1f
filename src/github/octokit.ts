// The Octokit that run-review talks to: Probot's installation-scoped client (context.octokit).
// Only the REST methods, `paginate` and `auth` are used, so tests can pass Probot's own class.

import type { ProbotOctokit } from "probot";

export type GitHubClient = InstanceType<typeof ProbotOctokit>;

export interface RepoRef {
  readonly owner: string;
  readonly repo: string;
}

/** The HTTP status of an Octokit RequestError (or undefined for network and other failures). */
export function httpStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

export function responseHeader(error: unknown, name: string): string | undefined {
  const headers = (error as { response?: { headers?: Record<string, unknown> } } | null)?.response?.headers;
  const value = headers?.[name];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
}
