// A GraphQL query whose answer is parsed a piece at a time (json-in-slices.ts). octokit.graphql
// reads and parses the whole answer in one go, and a page of review threads holds the first 100
// comments of 100 threads, bodies of up to 65,536 characters each that anyone who can comment
// chooses. The request goes where octokit.graphql sends it: /graphql beside the REST API, or
// /api/graphql on GitHub Enterprise (whose REST API is /api/v3).

import { LoupeError } from "../../domain/errors.ts";
import { parseJsonInSlices, UNPARSED_BODY } from "./json-in-slices.ts";
import type { GitHubClient } from "./octokit.ts";

export type GraphQLRequester = Pick<GitHubClient, "request">;

export async function graphqlInSlices<T>(
  octokit: GraphQLRequester,
  query: string,
  variables: Record<string, unknown>,
  what: string,
): Promise<T> {
  const response = await octokit.request({
    method: "POST",
    url: graphqlUrl(octokit.request.endpoint.DEFAULTS.baseUrl),
    query,
    variables,
    request: UNPARSED_BODY,
  });
  const answer = await parseJsonInSlices(response.data, what);
  const { data, errors } = (answer ?? {}) as { data?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0) {
    const messages = errors.map((e) =>
      String((e as { message?: unknown } | null)?.message ?? "unknown error"),
    );
    throw new LoupeError("github_request_failed", `${what} has errors: ${messages.join("; ")}`);
  }
  if (typeof data !== "object" || data === null) {
    throw new LoupeError("github_request_failed", `${what} has no data`);
  }
  return data as T;
}

function graphqlUrl(baseUrl: string): string {
  return /\/api\/v3\/?$/.test(baseUrl)
    ? baseUrl.replace(/\/api\/v3\/?$/, "/api/graphql")
    : `${baseUrl}/graphql`;
}
