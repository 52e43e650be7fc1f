// Builds the Probot app function: the queue, the job runner and the thin webhook handler. Options
// are injected so tests pass the scripted provider, a local git base URL and fake sleeps.

import type { ApplicationFunction, Context, Probot } from "probot";
import { createCheckRuns } from "./check-runs/check-runs.ts";
import type { AppConfig } from "./config/app-config.ts";
import { type AppClient, createBotLoginLookup } from "./github/bot-login.ts";
import { RERUN_ACTION } from "./github/check-run.ts";
import type { GitHubClient } from "./github/octokit.ts";
import { completeLeftOpenRuns } from "./jobs/left-open-runs.ts";
import { createOpenRunsJournal, NO_JOURNAL } from "./jobs/open-runs-journal.ts";
import { createReviewQueue, type ReviewQueue } from "./jobs/queue.ts";
import { createQueuedCheckRuns } from "./jobs/queued-check-runs.ts";
import type { ReviewPorts } from "./jobs/review-ports.ts";
import { type Metrics, NO_METRICS } from "./metrics/metrics.ts";
import { createReviewEndedReporter } from "./metrics/review-ended.ts";
import { queueKey, type ReviewRequest } from "./jobs/review-request.ts";
import { runReview } from "./jobs/run-review.ts";
import { toReviewRequest } from "./webhooks/to-review-request.ts";

export interface LoupeAppOptions {
  readonly config: AppConfig;
  readonly ports: ReviewPorts;
  readonly appId: number | null;
  /** Loupe's `<slug>[bot]` login; looked up with GET /app (the app's JWT) when not given. */
  readonly botLogin?: string;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Receives the queue so the server can shut it down on SIGTERM (and tests can drain it). */
  readonly onQueue?: (queue: ReviewQueue) => void;
  /** Receives the completion of the runs an earlier process left open (LOUPE_STATE_DIR). */
  readonly onRecovery?: (done: Promise<void>) => void;
  /** The process's metrics port (deliveries, queue, review endings); none by default. */
  readonly metrics?: Metrics;
}

const HANDLED_EVENTS = ["pull_request", "check_run", "check_suite"] as const;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createLoupeApp(options: LoupeAppOptions): ApplicationFunction {
  return (app: Probot) => {
    // owner/repo#pr → the installation client of the newest request queued for it. Keyed by pull
    // request (not delivery), so a pending request replaced by a newer push leaves nothing behind.
    const clients = new Map<string, GitHubClient>();
    const given = options.botLogin;
    const botLogin =
      given === undefined
        ? createBotLoginLookup(async () => (await app.auth()) as unknown as AppClient)
        : () => Promise.resolve(given);
    const journal =
      options.config.stateDir === null ? NO_JOURNAL : createOpenRunsJournal(options.config.stateDir, app.log);
    // Started here, whoever listens: `onRecovery?.(start())` would not even start it without one.
    const recovery = completeLeftOpenRuns({
      journal,
      auth: async (installationId) => (await app.auth(installationId)) as unknown as GitHubClient,
      log: app.log,
    }).catch((error: unknown) =>
      app.log.warn({ error: String(error).slice(0, 200) }, "left-open check runs not completed"),
    );
    options.onRecovery?.(recovery);
    const metrics = options.metrics ?? NO_METRICS;
    const reviewEnded = createReviewEndedReporter(metrics, app.log);
    const sleep = options.sleep ?? defaultSleep;
    const checkRuns = createCheckRuns({
      name: options.config.checkRunName,
      progressIntervalMs: options.config.progressIntervalMs,
      log: app.log,
      sleep,
    });
    const queuedRuns = createQueuedCheckRuns(checkRuns);
    const queue = createReviewQueue({
      concurrency: options.config.reviewConcurrency,
      runner: (request: ReviewRequest, signal) => {
        const octokit = clients.get(queueKey(request))!;
        clients.delete(queueKey(request));
        return runReview({
          request,
          signal,
          octokit,
          ports: options.ports,
          config: options.config,
          log: app.log,
          botLogin,
          sleep,
          checkRuns,
          queuedCheckRun: queuedRuns.claim(request),
          onEnded: reviewEnded,
        });
      },
      onRunnerError: (error) => app.log.error({ error: String(error).slice(0, 200) }, "review job failed"),
      // The handler stores the client before it enqueues, so the waiting request's client is there.
      onWaiting: (request) => queuedRuns.announce(request, clients.get(queueKey(request))!),
      onDropped: (request, reason) => queuedRuns.drop(request, reason),
    });
    options.onQueue?.(queue);
    metrics.watchQueue(() => queue.stats());

    const handle = async (context: Context) => {
      const mapped = toReviewRequest(
        { name: context.name, id: context.id, payload: context.payload },
        { appId: options.appId, rerunIdentifier: RERUN_ACTION.identifier },
      );
      if (mapped.kind === "skip") {
        metrics.webhookDelivery(context.name, "skipped");
        context.log.debug({ reason: mapped.reason }, mapped.message);
        return;
      }
      const outcomes: string[] = [];
      for (const request of mapped.requests) {
        const key = queueKey(request);
        const previous = clients.get(key);
        journal.watch(context.octokit as GitHubClient, request.installationId);
        clients.set(key, context.octokit as GitHubClient); // before enqueue: it may start the job at once
        const outcome = queue.enqueue(request);
        if (outcome !== "queued") {
          // Not taken: a request still waiting for this PR keeps its own client.
          if (previous === undefined) clients.delete(key);
          else clients.set(key, previous);
        }
        outcomes.push(outcome);
        context.log.info({ pr: request.pullNumber, outcome }, "review request");
      }
      // One count per delivery: "queued" when any of its pull requests was queued.
      metrics.webhookDelivery(
        context.name,
        outcomes.includes("queued") ? "queued" : (outcomes[0] ?? "skipped"),
      );
    };
    // Answer at once: the handler only maps and enqueues; the check run carries every later failure.
    app.on([...HANDLED_EVENTS], handle);
    // Every other event the App receives (installation, ping...) is counted, not handled.
    app.onAny((event) => {
      if (!(HANDLED_EVENTS as readonly string[]).includes(event.name))
        metrics.webhookDelivery(event.name, "ignored");
    });
  };
}
