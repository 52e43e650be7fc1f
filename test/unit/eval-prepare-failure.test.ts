import { describe, expect, it } from "@jest/globals";
import { RequestError } from "@octokit/request-error";
import { describeFailure } from "../../src/eval/prepare-failure.ts";

const pull = "https://github.com/o/r/pull/7";
const request = { method: "GET" as const, url: "https://api.github.com/repos/o/r/pulls/7", headers: {} };

/** Octokit's error for a request that got no answer: status 500, the socket's error two causes down. */
function networkError(code: string): RequestError {
  const socket = Object.assign(new Error(`getaddrinfo ${code} api.github.com`), { code });
  const error = new RequestError("fetch failed", 500, { request });
  Object.assign(error, { cause: new TypeError("fetch failed", { cause: socket }) });
  return error;
}

function answered(status: number, headers: Record<string, string> = {}): RequestError {
  const response = { status, url: request.url, headers, data: {} };
  return new RequestError(`HTTP ${status}`, status, { request, response });
}

describe("describeFailure", () => {
  it("names the pull request, the host and what to set when the name does not resolve", () => {
    const failure = describeFailure({ pull, host: "api.github.com", error: networkError("ENOTFOUND") });
    expect(failure).toMatchObject({ kind: "dns", retry: false });
    expect(failure.message).toBe(
      `${pull}: cannot resolve api.github.com (DNS): check the network; behind a proxy, set HTTPS_PROXY and NODE_USE_ENV_PROXY=1; for GitHub Enterprise, set GITHUB_API_URL`,
    );
  });

  it("never takes a request without an answer for a server error", () => {
    const error = new RequestError("fetch failed", 500, { request });
    Object.assign(error, { cause: new TypeError("fetch failed", { cause: new Error("bad port") }) });
    const failure = describeFailure({ pull, host: "h:1", error });
    expect(failure).toMatchObject({ kind: "unreachable", retry: false });
    expect(failure.message).toContain("the connection to h:1 failed (bad port)");
  });

  it("asks a server that answered 502 again, and stops on a spent rate limit or a refused token", () => {
    expect(describeFailure({ pull, host: "h", error: answered(502) })).toMatchObject({ retry: true });
    const limited = describeFailure({ pull, host: "h", error: answered(429) });
    expect(limited).toMatchObject({ kind: "rate_limited", retry: false });
    expect(limited.message).toContain("set GITHUB_TOKEN");
    expect(describeFailure({ pull, host: "h", error: answered(401) }).message).toContain(
      "h refused GITHUB_TOKEN (HTTP 401)",
    );
    expect(describeFailure({ pull, host: "h", error: answered(404) }).message).toContain(
      "private or deleted pull request",
    );
  });
});
