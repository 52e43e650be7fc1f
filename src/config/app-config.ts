// The operator's environment for the GitHub App itself (the provider and loop budgets have their
// own readers). Every value has a default and a hard cap; a bad value is a one-line
// configuration error naming the variable, never a silent fallback.

import { AUTHOR_POLICIES, type AuthorPolicy, DEFAULT_AUTHOR_POLICY } from "../domain/author-policy.ts";
import { LoupeError } from "../domain/errors.ts";

type Env = Readonly<Record<string, string | undefined>>;

export interface AppConfig {
  /** Reviews running at the same time in this process. */
  readonly reviewConcurrency: number;
  /** Replies in Loupe's review threads running at the same time in this process (their own queue). */
  readonly replyConcurrency: number;
  /** How long running reviews may finish after SIGTERM before they are cancelled. */
  readonly shutdownGraceMs: number;
  readonly checkRunName: string;
  /** Minimum spacing of check-run progress updates while the loop runs. */
  readonly progressIntervalMs: number;
  /** Where repositories are fetched from: GHE_PROTOCOL://GHE_HOST, or https://github.com. */
  readonly gitBaseUrl: string;
  /** The GitHub host the installation token may be sent to (never anywhere else). */
  readonly gitHost: string;
  /**
   * LOUPE_STATE_DIR: where Loupe records the check runs it has not completed yet, so that after a
   * crash it completes them at start (open-runs-journal.ts); null to keep no record.
   */
  readonly stateDir: string | null;
  /** AUTO_REVIEW_AUTHORS: whose pull requests are reviewed without being asked (a repository may tighten it). */
  readonly autoReviewAuthors: AuthorPolicy;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new LoupeError("configuration_invalid", `${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

export function readAppConfig(env: Env): AppConfig {
  const reviewConcurrency = integer(env, "REVIEW_CONCURRENCY", 2, 1, 16);
  const replyConcurrency = integer(env, "REPLY_CONCURRENCY", 2, 1, 16);
  const shutdownGraceMs = integer(env, "SHUTDOWN_GRACE_SECONDS", 20, 0, 300) * 1000;
  const progressIntervalMs = integer(env, "CHECK_RUN_PROGRESS_SECONDS", 5, 1, 300) * 1000;
  const checkRunName = (env.CHECK_RUN_NAME ?? "").trim() || "Loupe review";
  if (checkRunName.length > 100 || /[\r\n]/.test(checkRunName)) {
    throw new LoupeError(
      "configuration_invalid",
      "CHECK_RUN_NAME must be one line of at most 100 characters",
    );
  }
  const protocol = (env.GHE_PROTOCOL ?? "").trim() || "https";
  if (protocol !== "https" && protocol !== "http") {
    throw new LoupeError("configuration_invalid", "GHE_PROTOCOL must be https or http");
  }
  const gitHost = (env.GHE_HOST ?? "").trim() || "github.com";
  if (!/^[A-Za-z0-9.-]+(:[0-9]{1,5})?$/.test(gitHost)) {
    throw new LoupeError("configuration_invalid", "GHE_HOST must be a host name (and optional port)");
  }
  const stateDir = (env.LOUPE_STATE_DIR ?? "").trim();
  if (/[\0\r\n]/.test(stateDir)) {
    throw new LoupeError("configuration_invalid", "LOUPE_STATE_DIR must be a directory path");
  }
  const authors = (env.AUTO_REVIEW_AUTHORS ?? "").trim() || DEFAULT_AUTHOR_POLICY;
  if (!(AUTHOR_POLICIES as readonly string[]).includes(authors)) {
    throw new LoupeError(
      "configuration_invalid",
      `AUTO_REVIEW_AUTHORS must be one of ${AUTHOR_POLICIES.join(", ")}`,
    );
  }
  return {
    autoReviewAuthors: authors as AuthorPolicy,
    reviewConcurrency,
    replyConcurrency,
    shutdownGraceMs,
    checkRunName,
    progressIntervalMs,
    gitBaseUrl: `${protocol}://${gitHost}`,
    gitHost,
    stateDir: stateDir === "" ? null : stateDir,
  };
}
