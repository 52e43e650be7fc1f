// The operator's environment for the GitHub App itself (the provider and loop budgets are their
// own areas): concurrency, shutdown, the check run, the GitHub host and the state directory.
// Every value has a default and a hard cap in the schema; a bad value is an error line.

import * as v from "valibot";
import { AUTHOR_POLICIES, DEFAULT_AUTHOR_POLICY } from "../domain/author-policy.ts";
import { choiceVar, integerVar, shown, textVar } from "./env-fields.ts";

export const REVIEW_CONCURRENCY = integerVar("REVIEW_CONCURRENCY", 1, 16, 2);

const HOST = /^[A-Za-z0-9.-]+(:[0-9]{1,5})?$/;

export const AppConfigSchema = v.pipe(
  v.object({
    REVIEW_CONCURRENCY,
    REPLY_CONCURRENCY: integerVar("REPLY_CONCURRENCY", 1, 16, 2),
    SHUTDOWN_GRACE_SECONDS: integerVar("SHUTDOWN_GRACE_SECONDS", 0, 300, 20),
    CHECK_RUN_PROGRESS_SECONDS: integerVar("CHECK_RUN_PROGRESS_SECONDS", 1, 300, 5),
    CHECK_RUN_NAME: textVar(
      (name) => name.length <= 100 && !/[\r\n]/.test(name),
      "CHECK_RUN_NAME is not one line of at most 100 characters: shorten it, or unset it for Loupe review",
      "Loupe review",
    ),
    GHE_PROTOCOL: choiceVar("GHE_PROTOCOL", ["https", "http"], "https"),
    GHE_HOST: textVar(
      (host) => HOST.test(host),
      (issue) =>
        `GHE_HOST=${shown(issue.input)} is not a host name: set the host (and optional :port) of GitHub Enterprise Server, without a scheme or path`,
      "github.com",
    ),
    // While a dependency (Redis, GitHub) stays down, how often the log says so again, with the
    // errors counted meanwhile: enough to see an outage is still on, never a flood.
    LOG_STILL_DOWN_SECONDS: integerVar("LOG_STILL_DOWN_SECONDS", 1, 3600, 60),
    // The organisation's `.github/loupe.yml` is kept this long per installation (0: read it for
    // every review); a push to `<owner>/.github`'s default branch forgets it at once.
    ORG_CONFIG_TTL_SECONDS: integerVar("ORG_CONFIG_TTL_SECONDS", 0, 3600, 60),
    AUTO_REVIEW_AUTHORS: choiceVar("AUTO_REVIEW_AUTHORS", AUTHOR_POLICIES, DEFAULT_AUTHOR_POLICY),
    LOUPE_STATE_DIR: textVar(
      (dir) => !/[\0\r\n]/.test(dir),
      "LOUPE_STATE_DIR is not a directory path (it holds a line break): set one path",
    ),
  }),
  v.transform((env) => ({
    /** Reviews running at the same time in this process. */
    reviewConcurrency: env.REVIEW_CONCURRENCY,
    /** Replies in Loupe's review threads running at the same time (their own queue). */
    replyConcurrency: env.REPLY_CONCURRENCY,
    /** How long running reviews may finish after SIGTERM before they are cancelled. */
    shutdownGraceMs: env.SHUTDOWN_GRACE_SECONDS * 1000,
    checkRunName: env.CHECK_RUN_NAME,
    /** Minimum spacing of check-run progress updates while the loop runs. */
    progressIntervalMs: env.CHECK_RUN_PROGRESS_SECONDS * 1000,
    /** Where repositories are fetched from: GHE_PROTOCOL://GHE_HOST, or https://github.com. */
    gitBaseUrl: `${env.GHE_PROTOCOL}://${env.GHE_HOST}`,
    /** The GitHub host the installation token may be sent to (never anywhere else). */
    gitHost: env.GHE_HOST,
    /**
     * Where Loupe records the check runs it has not completed yet, so that after a crash it
     * completes them at start (forges/github/check-runs/open-runs-journal.ts); null to keep no record.
     */
    stateDir: env.LOUPE_STATE_DIR ?? null,
    /** Whose pull requests are reviewed without being asked (a repository may tighten it). */
    autoReviewAuthors: env.AUTO_REVIEW_AUTHORS,
    /** How long the organisation's file is kept per installation before it is read again. */
    organisationConfigTtlMs: env.ORG_CONFIG_TTL_SECONDS * 1000,
    /** How often a dependency still down is logged again. */
    stillDownLogMs: env.LOG_STILL_DOWN_SECONDS * 1000,
  })),
);

export type AppConfig = v.InferOutput<typeof AppConfigSchema>;
