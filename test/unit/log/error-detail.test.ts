// The operator's log says why a job failed, where the public check run only says that it did.

import { describe, expect, it } from "@jest/globals";
import nock from "nock";
import { ProbotOctokit } from "probot";
import { LoupeError } from "../../../src/domain/errors.ts";
import { errorDetail } from "../../../src/log/error-detail.ts";

describe("errorDetail", () => {
  it("names an unexpected error's class, message and where it was thrown", () => {
    function parseSomething(): never {
      throw new TypeError("Cannot read properties of undefined (reading 'sha')");
    }
    let thrown: unknown;
    try {
      parseSomething();
    } catch (error) {
      thrown = error;
    }
    const detail = errorDetail(thrown);
    expect(detail).toMatch(
      /^TypeError: Cannot read properties of undefined \(reading 'sha'\); at parseSomething \(/,
    );
    expect(detail).toContain("error-detail.test.ts:");
  });

  it("gives GitHub's status, the request it answered and its message", async () => {
    nock("https://api.github.com")
      .post("/repos/o/r/pulls/2/reviews")
      .reply(422, { message: "Validation Failed", errors: ["Line could not be resolved"] });
    const octokit = new ProbotOctokit({ retry: { enabled: false }, throttle: { enabled: false } });
    const error = await octokit
      .request("POST /repos/o/r/pulls/2/reviews", { body: "x" })
      .catch((e: unknown) => e);
    expect(errorDetail(error)).toMatch(
      /^HTTP 422 POST https:\/\/api\.github\.com\/repos\/o\/r\/pulls\/2\/reviews: Validation Failed/,
    );
    expect(errorDetail(error)).toContain("Line could not be resolved");
  });

  it("gives Loupe's code and the cause it wraps", () => {
    const error = new LoupeError("git_network_failed", "fetch of o/r failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { name: "Error" }),
    });
    expect(errorDetail(error)).toMatch(
      /^git_network_failed: fetch of o\/r failed; caused by Error: connect ECONNREFUSED 127\.0\.0\.1:9; at /,
    );
  });

  it("says what was thrown when it is not an Error", () => {
    expect(errorDetail("boom")).toBe("thrown string: boom");
    expect(errorDetail(undefined)).toBe("thrown undefined: undefined");
    expect(errorDetail(Object.create(null))).toBe("thrown object: (unprintable)");
  });

  it("redacts secrets and stays one bounded line, cut on a code point", () => {
    const token = "ghs_abcdefghijklmnopqrstuvwxyz0123456789";
    const detail = errorDetail(new Error(`token ${token} ${"😀".repeat(2000)}`));
    expect(detail).not.toContain(token);
    expect(detail).toContain("[REDACTED]");
    expect(detail.length).toBeLessThanOrEqual(1001);
    expect(detail.endsWith("😀…")).toBe(true);
    expect(detail).not.toContain("\n");
    const aggregate = new AggregateError([new Error("a")], "first failure\nsecond failure");
    expect(errorDetail(aggregate)).toMatch(/^AggregateError: first failure \| second failure; at /);
  });
});
