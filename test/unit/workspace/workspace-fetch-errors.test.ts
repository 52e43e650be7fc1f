import { describe, expect, it } from "@jest/globals";
import { LoupeError } from "../../../src/domain/errors.ts";
import { classifyFetchError } from "../../../src/workspace/fetch-errors.ts";

const aborted = (): AbortSignal => {
  const controller = new AbortController();
  controller.abort(new DOMException("timed out", "TimeoutError"));
  return controller.signal;
};

describe("classifyFetchError", () => {
  const what = "the head commit 1234";

  it("reports a commit found missing after the timeout fired as git_timeout", () => {
    const missing = new LoupeError("git_commit_unreachable", `the git server did not send ${what}`);
    const error = classifyFetchError(missing, { what, signal: aborted(), timeoutMs: 200 });
    expect(error.code).toBe("git_timeout");
    expect(error.message).toBe(`fetching ${what} took longer than 200 ms`);
  });

  it("reports it as git_aborted when the caller aborted", () => {
    const missing = new LoupeError("git_commit_unreachable", `the git server did not send ${what}`);
    const signal = aborted();
    const error = classifyFetchError(missing, { what, callerSignal: signal, signal, timeoutMs: 200 });
    expect(error.code).toBe("git_aborted");
  });

  it("keeps a missing commit while the signal has not fired", () => {
    const missing = new LoupeError("git_commit_unreachable", `the git server did not send ${what}`);
    const error = classifyFetchError(missing, { what, signal: new AbortController().signal, timeoutMs: 200 });
    expect(error).toBe(missing);
  });

  it("keeps Loupe's other errors even after the signal fired", () => {
    const tooLarge = new LoupeError("git_repository_too_large", "the git server sent more than 10 bytes");
    expect(classifyFetchError(tooLarge, { what, signal: aborted(), timeoutMs: 200 })).toBe(tooLarge);
  });
});
