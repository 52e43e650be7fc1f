import { describe, expect, it } from "@jest/globals";
import { AppConfigSchema } from "../../../src/config/app-config.ts";
import { TERMINATION_REASONS } from "../../../src/domain/outcome.ts";
import { conclusionFor } from "../../../src/jobs/conclusion.ts";
import { settingsError, settingsOf } from "../../support/settings.ts";

const readAppConfig = (env: Record<string, string>) => settingsOf(AppConfigSchema, env);

describe("conclusionFor", () => {
  it.each(TERMINATION_REASONS.map((r) => [r]))("maps %s", (reason) => {
    const expected = reason === "final_review" ? "success" : reason === "cancelled" ? "cancelled" : "neutral";
    expect(conclusionFor(reason, false)).toBe(expected);
    // only a finished review can fail the gate; Loupe's own trouble never blocks a merge
    const gated = reason === "final_review" ? "failure" : expected;
    expect(conclusionFor(reason, true)).toBe(gated);
  });
});

describe("the App's settings", () => {
  it("has defaults", () => {
    expect(readAppConfig({})).toEqual({
      reviewConcurrency: 2,
      replyConcurrency: 2,
      shutdownGraceMs: 20_000,
      checkRunName: "Loupe review",
      progressIntervalMs: 5000,
      gitBaseUrl: "https://github.com",
      gitHost: "github.com",
      stateDir: null,
      autoReviewAuthors: "members",
      stillDownLogMs: 60_000,
      organisationConfigTtlMs: 60_000,
    });
    expect(readAppConfig({ LOUPE_STATE_DIR: " /var/lib/loupe " }).stateDir).toBe("/var/lib/loupe");
    expect(readAppConfig({ GHE_HOST: "ghe.example.com:8443", GHE_PROTOCOL: "http" }).gitBaseUrl).toBe(
      "http://ghe.example.com:8443",
    );
  });
  it.each([
    [{ REVIEW_CONCURRENCY: "0" }, 'REVIEW_CONCURRENCY="0" is not an integer from 1 to 16'],
    [{ REVIEW_CONCURRENCY: "17" }, 'REVIEW_CONCURRENCY="17" is not an integer from 1 to 16'],
    [{ REVIEW_CONCURRENCY: "2.5" }, 'REVIEW_CONCURRENCY="2.5" is not an integer from 1 to 16'],
    [{ SHUTDOWN_GRACE_SECONDS: "x" }, 'SHUTDOWN_GRACE_SECONDS="x" is not an integer from 0 to 300'],
    [{ GHE_PROTOCOL: "ftp" }, 'GHE_PROTOCOL="ftp" is not one of https, http'],
    [{ GHE_HOST: "evil.com/path" }, 'GHE_HOST="evil.com/path" is not a host name'],
    [{ CHECK_RUN_NAME: "a\nb" }, "CHECK_RUN_NAME is not one line of at most 100 characters"],
    [{ LOUPE_STATE_DIR: "/var/lib\nloupe" }, "LOUPE_STATE_DIR is not a directory path"],
    [{ LOG_STILL_DOWN_SECONDS: "0" }, 'LOG_STILL_DOWN_SECONDS="0" is not an integer from 1 to 3600'],
    [{ LOG_STILL_DOWN_SECONDS: "1.5" }, 'LOG_STILL_DOWN_SECONDS="1.5" is not an integer from 1 to 3600'],
    [
      { AUTO_REVIEW_AUTHORS: "anyone" },
      'AUTO_REVIEW_AUTHORS="anyone" is not one of everyone, members, writers',
    ],
  ])("rejects %j with one line", (env, message) => {
    const line = settingsError(AppConfigSchema, env);
    expect(line).toContain(message);
    expect(line).not.toContain("\n");
  });
});
