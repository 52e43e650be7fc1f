// Builds the Probot app function: the queue, the job runner and the thin webhook handler. Options
// are injected so tests pass the scripted provider, a local git base URL and fake sleeps.

import type { ApplicationFunction, Context, Probot } from "probot";
import { createCheckRuns } from "./check-runs/check-runs.ts";
import type { AppConfig } from "./config/app-config.ts";
import { createPermissionCache } from "./conversation/permission-cache.ts";
import { createReplyEndedReporter } from "./replies/reply-ending.ts";
import { createReplyQueue, type ReplyQueue, type ReplyRunner } from "./replies/reply-queue.ts";
import { runReply } from "./replies/run-reply.ts";
import { errorDetail } from "./pipeline/error-detail.ts";
import type { FleetTiming } from "./fleet/fleet-timing.ts";
import { createRedisQueue } from "./fleet/redis-queue.ts";
import { createRedisReplyQueue } from "./fleet/redis-reply-queue.ts";
import { type AppClient, createBotLoginLookup } from "./github/bot-login.ts";
import { RERUN_ACTION } from "./github/check-run.ts";
import type { GitHubClient } from "./github/octokit.ts";
import { completeLeftOpenRuns } from "./jobs/left-open-runs.ts";
import { createOpenRunsJournal, NO_JOURNAL } from "./jobs/open-runs-journal.ts";
import { createReviewQueue } from "./jobs/queue.ts";
import type { ReviewPorts } from "./pipeline/review-ports.ts";
import type { JobRunner, ReviewQueue } from "./jobs/review-queue.ts";
import type { CancelReason } from "./domain/cancel-reason.ts";
import type { ReviewRequest } from "./domain/review-request.ts";
import { runReview } from "./jobs/run-review.ts";
import { type Metrics, NO_METRICS } from "./metrics/metrics.ts";
import { createReviewEndedReporter } from "./metrics/review-ended.ts";
import { createCommentHandler } from "./replies/comment-handler.ts";
import { deliveryFailure } from "./webhooks/delivery-failure.ts";
import { toReviewRequest } from "./webhooks/to-review-request.ts";
import type { Workspace, WorkspaceHandle } from "./workspace/types.ts";

/** W: what the ports make of a fetched workspace (in this thread, or a handle to a worker's). */
export interface LoupeAppOptions<W extends WorkspaceHandle = Workspace> {
  readonly config: AppConfig;
  readonly ports: ReviewPorts<W>;
  readonly appId: number | null;
  /** Loupe's `<slug>[bot]` login; looked up with GET /app (the app's JWT) when not given. */
  readonly botLogin?: string;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Receives the queue so the server can shut it down on SIGTERM (and tests can drain it). */
  readonly onQueue?: (queue: ReviewQueue) => void;
  /** Receives the queue of replies in Loupe's threads, to shut down and drain like the reviews'. */
  readonly onReplyQueue?: (queue: ReplyQueue) => void;
  /** Receives the completion of the runs an earlier process left open (LOUPE_STATE_DIR). */
  readonly onRecovery?: (done: Promise<void>) => void;
  /** The process's metrics port (deliveries, queue, review endings); none by default. */
  readonly metrics?: Metrics;
  /** REDIS_URL: the fleet's shared queue in Redis instead of this process's own queue. */
  readonly redisUrl?: string | null;
  readonly fleetTiming?: Partial<FleetTiming>;
  /** The clock commenters' permissions expire by in the cache (tests move it). */
  readonly now?: () => number;
}

const HANDLED_EVENTS = ["pull_request", "check_run", "check_suite"] as const;
/** Comments in a pull request's conversation: commands, and replies in Loupe's threads. */
const CONVERSATION_EVENTS = ["issue_comment", "pull_request_review_comment"] as const;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createLoupeApp<W extends WorkspaceHandle>(options: LoupeAppOptions<W>): ApplicationFunction {
  return (app: Probot) => {
    const given = options.botLogin;
    const botLogin =
      given === undefined
        ? createBotLoginLookup(async () => (await app.auth()) as unknown as AppClient)
        : () => Promise.resolve(given);
    const fleet = options.redisUrl !== undefined && options.redisUrl !== null;
    // In a fleet a dead replica's runs are taken over, not cancelled: a journal would cancel them.
    if (fleet && options.config.stateDir !== null)
      app.log.warn({}, "LOUPE_STATE_DIR is ignored with REDIS_URL");
    const journal =
      options.config.stateDir === null || fleet
        ? NO_JOURNAL
        : createOpenRunsJournal(options.config.stateDir, app.log);
    // A job is plain data: whoever runs it authenticates as its installation (Probot caches the
    // installation token), and the journal sees every check run that client creates or completes.
    const installation = async (installationId: number): Promise<GitHubClient> => {
      const octokit = (await app.auth(installationId)) as unknown as GitHubClient;
      journal.watch(octokit, installationId);
      return octokit;
    };
    // Started here, whoever listens: `onRecovery?.(start())` would not even start it without one.
    const recovery = completeLeftOpenRuns({
      journal,
      auth: async (installationId) => (await app.auth(installationId)) as unknown as GitHubClient,
      log: app.log,
    }).catch((error: unknown) =>
      app.log.warn({ error: errorDetail(error) }, "left-open check runs not completed"),
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
    const runner: JobRunner = async (job, signal, onCheckRun) =>
      runReview({
        job,
        signal,
        octokit: await installation(job.request.installationId),
        ports: options.ports,
        config: options.config,
        log: app.log,
        botLogin,
        sleep,
        checkRuns,
        onEnded: reviewEnded,
        ...(onCheckRun ? { onCheckRun } : {}),
      });
    const announce = async (request: ReviewRequest) => {
      const octokit = await installation(request.installationId).catch(() => null);
      return octokit === null ? null : await checkRuns.announce(octokit, request, request.headSha);
    };
    const cancel = async (request: ReviewRequest, checkRunId: number, reason: CancelReason) =>
      checkRuns.cancel(await installation(request.installationId), request, checkRunId, reason);
    const queue: ReviewQueue =
      !fleet || !options.redisUrl
        ? createReviewQueue({
            concurrency: options.config.reviewConcurrency,
            runner,
            onRunnerError: (error) => app.log.error({ error: errorDetail(error) }, "review job failed"),
            onWaiting: announce,
            onDropped: async (job, reason) => {
              if (job.checkRun !== null) await cancel(job.request, job.checkRun.id, reason);
            },
          })
        : createRedisQueue({
            redisUrl: options.redisUrl,
            concurrency: options.config.reviewConcurrency,
            runner,
            log: app.log,
            announce,
            cancel,
            ...(options.fleetTiming ? { timing: options.fleetTiming } : {}),
          });
    options.onQueue?.(queue);
    metrics.watchQueue(() => queue.stats());
    const replyEnded = createReplyEndedReporter(metrics, app.log);
    const replyRunner: ReplyRunner = async (request, signal) =>
      runReply({
        request,
        signal,
        octokit: await installation(request.installationId),
        ports: options.ports,
        config: options.config,
        log: app.log,
        botLogin,
        onEnded: replyEnded,
      });
    const replies: ReplyQueue =
      !fleet || !options.redisUrl
        ? createReplyQueue({
            concurrency: options.config.replyConcurrency,
            runner: replyRunner,
            onRunnerError: (error) => app.log.error({ error: errorDetail(error) }, "reply job failed"),
            onDropped: (request) =>
              app.log.warn(
                { pr: request.pullNumber, comment: request.replyCommentId },
                "reply dropped at shutdown",
              ),
          })
        : createRedisReplyQueue({
            redisUrl: options.redisUrl,
            concurrency: options.config.replyConcurrency,
            runner: replyRunner,
            log: app.log,
            ...(options.fleetTiming ? { timing: options.fleetTiming } : {}),
          });
    options.onReplyQueue?.(replies);

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
        // Awaited: the webhook is answered only once the queue has taken the request (a queue
        // that cannot take it throws, and the delivery fails so GitHub can redeliver it).
        const outcome = await queue.enqueue(request);
        outcomes.push(outcome);
        context.log.info({ pr: request.pullNumber, outcome }, "review request");
      }
      // One count per delivery: "queued" when any of its pull requests was queued.
      metrics.webhookDelivery(
        context.name,
        outcomes.includes("queued") ? "queued" : (outcomes[0] ?? "skipped"),
      );
    };
    // The handler only maps and enqueues; the check run carries every later failure.
    app.on([...HANDLED_EVENTS], handle);
    app.on(
      [...CONVERSATION_EVENTS],
      createCommentHandler({
        botLogin,
        enqueueReview: (request) => queue.enqueue(request),
        enqueueReply: (request) => replies.enqueue(request),
        onOutcome: (event, outcome) => metrics.webhookDelivery(event, outcome),
        permissions: createPermissionCache(options.now ? { now: options.now } : {}),
      }),
    );
    // Every other event the App receives (installation, ping...) is counted, not handled.
    const known: readonly string[] = [...HANDLED_EVENTS, ...CONVERSATION_EVENTS];
    app.onAny((event) => {
      if (!known.includes(event.name)) metrics.webhookDelivery(event.name, "ignored");
    });
    app.onError(async (error) => {
      const failure = deliveryFailure(error);
      metrics.webhookDelivery(failure.event, failure.outcome);
    });
  };
}
