import { describe, expect, it } from "@jest/globals";
import { isLoupeError, LoupeError } from "../../../src/domain/errors.ts";
import { registerSecret } from "../../../src/domain/redact.ts";
import { fromPlainError, toPlainError } from "../../../src/isolation/protocol.ts";

describe("an error crossing from a repository worker", () => {
  it("stays a LoupeError with its code, message and cause (the pipeline reads the code)", () => {
    const cause = new TypeError("socket hang up");
    const crossed = fromPlainError(
      structuredClone(toPlainError(new LoupeError("git_repository_too_large", "over 10 bytes", { cause }))),
    );
    expect(isLoupeError(crossed, "git_repository_too_large")).toBe(true);
    expect(crossed.message).toBe("over 10 bytes");
    expect(crossed.cause).toBeInstanceOf(Error);
    expect((crossed.cause as Error).name).toBe("TypeError");
    expect((crossed.cause as Error).message).toBe("socket hang up");
  });

  it("keeps another error's name and stack, but not a code a LoupeError cannot have", () => {
    const error = Object.assign(new RangeError("too deep"), { code: "git_timeout" });
    const crossed = fromPlainError(structuredClone(toPlainError(error)));
    expect(crossed).not.toBeInstanceOf(LoupeError);
    expect(crossed.name).toBe("RangeError");
    expect(crossed.stack).toContain("too deep");
  });

  it("is redacted with the secrets registered where it was thrown", () => {
    const token = "ghs_crossingTokenForTheTest0123456789";
    const release = registerSecret(token);
    const plain = toPlainError(new Error(`fetch failed for https://x-access-token:${token}@github.com`));
    release();
    expect(JSON.stringify(plain)).not.toContain(token);
    expect(fromPlainError(plain).message).toContain("[REDACTED]");
  });

  it("says what was thrown when it was not an Error", () => {
    expect(fromPlainError(toPlainError("a string")).message).toBe("thrown string");
  });
});
