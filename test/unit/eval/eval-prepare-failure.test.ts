import { describe, expect, it } from "@jest/globals";
import { describeFailure } from "../../../src/eval/prepare-failure.ts";

const pull = "https://github.com/o/r/pull/7";

/**
 * Octokit's error (an HttpError with `status`, and `response` when there was an answer) for a
 * request that got no answer: status 500, fetch's TypeError as the cause, the socket's error below.
 */
function unanswered(cause: Error): Error {
  return Object.assign(new Error("fetch failed"), {
    name: "HttpError",
    status: 500,
    cause: new TypeError("fetch failed", { cause }),
  });
}

function answered(status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`HTTP ${status}`), {
    name: "HttpError",
    status,
    response: { status, headers },
  });
}

describe("describeFailure", () => {
  it("names the pull request, the host and what to set when the name does not resolve", () => {
    const failure = describeFailure({
      pull,
      host: "api.github.com",
      error: unanswered(
        Object.assign(new Error("getaddrinfo ENOTFOUND api.github.com"), { code: "ENOTFOUND" }),
      ),
    });
    expect(failure).toMatchObject({ kind: "dns", retry: false });
    expect(failure.message).toBe(
      `${pull}: cannot resolve api.github.com (DNS): check the network; behind a proxy, set HTTPS_PROXY and NODE_USE_ENV_PROXY=1; for GitHub Enterprise, set GITHUB_API_URL`,
    );
  });

  it("never takes a request without an answer for a server error", () => {
    const failure = describeFailure({ pull, host: "h:1", error: unanswered(new Error("bad port")) });
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
