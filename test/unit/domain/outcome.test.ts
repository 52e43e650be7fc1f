import { describe, expect, it } from "@jest/globals";
import {
  STOPS_LATER_LOOPS,
  TERMINATION_REASONS,
  TERMINATION_SENTENCES,
  terminationSentence,
  WORKER_STOP_REASONS,
} from "../../../src/domain/outcome.ts";
import { redactSecrets, registeredSecretCount, registerSecret } from "../../../src/domain/redact.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { gitLabWords } from "../../../src/forges/gitlab/words.ts";

describe("termination reasons", () => {
  it("has one static sentence for every reason", () => {
    for (const reason of TERMINATION_REASONS) {
      expect(terminationSentence(reason, GITHUB_WORDS)).toMatch(/^[A-Z].*\.$/);
    }
    // Every reason but the forge's own has a sentence that names no forge.
    expect([...Object.keys(TERMINATION_SENTENCES), "github_unavailable"].sort()).toEqual(
      [...TERMINATION_REASONS].sort(),
    );
  });

  it("names the forge that could not be reached in its own words", () => {
    expect(terminationSentence("github_unavailable", GITHUB_WORDS)).toBe(
      "GitHub could not be reached or kept failing, so the review could not run.",
    );
    const gitLab = terminationSentence("github_unavailable", gitLabWords("loupe-bot"));
    expect(gitLab).toBe("GitLab could not be reached or kept failing, so the review could not run.");
  });

  it("stop later loops for what they would meet too, never for one loop's own limits", () => {
    for (const reason of [...WORKER_STOP_REASONS, "cancelled", "provider_authentication_failed"] as const)
      expect(STOPS_LATER_LOOPS.has(reason)).toBe(true);
    const own = [
      "final_review",
      "max_rounds",
      "max_tool_calls",
      "invalid_model_response",
      "upstream_response_too_large",
    ];
    expect(own.filter((reason) => STOPS_LATER_LOOPS.has(reason as never))).toEqual([]);
  });
});

describe("redactSecrets", () => {
  it.each([
    ["token ghs_abcdefghijklmnopqrstuvwxyz0123", "token [REDACTED]"],
    ["Authorization: Bearer sk-live-0123456789abcdef", "Authorization: Bearer [REDACTED]"],
    ["https://x-access-token:ghs_secret123@github.com/o/r.git", "https://[REDACTED]@github.com/o/r.git"],
    ["key sk-proj-0123456789abcdefghij in text", "key [REDACTED] in text"],
  ])("removes the credential from %s", (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it("removes registered secrets wherever they appear", () => {
    registerSecret("plain-secret-value");
    expect(redactSecrets("a plain-secret-value b")).toBe("a [REDACTED] b");
  });
});

describe("registerSecret", () => {
  it("redacts a value until every holder has released it, then keeps nothing", () => {
    const before = registeredSecretCount();
    const first = registerSecret("ghs_sharedinstallationtoken1");
    const second = registerSecret("ghs_sharedinstallationtoken1");
    first();
    first(); // a second call does nothing
    expect(redactSecrets("t=ghs_sharedinstallationtoken1")).toBe("t=[REDACTED]");
    second();
    expect(registeredSecretCount()).toBe(before);
    expect(redactSecrets("x plain-released-value")).toBe("x plain-released-value");
    const third = registerSecret("plain-released-value");
    expect(redactSecrets("x plain-released-value")).toBe("x [REDACTED]");
    third();
    expect(redactSecrets("x plain-released-value")).toBe("x plain-released-value");
  });
});
