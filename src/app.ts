// Builds the Probot app function: the queues, the job runners and the thin webhook handlers.
// Options are injected so tests pass the scripted provider, a local git base URL and fake sleeps.
// The queues exist only once Probot runs the function (they authenticate through it), so the
// caller receives them as `started`, a promise of what is running, rather than through callbacks.

import type { ApplicationFunction, Probot } from "probot";
import { organisationConfigsFor, organisationPushHandler } from "./app-organisation.ts";
import { botLoginOf, type GitHubAuth, openRunsJournal, withoutGitHub } from "./app-parts.ts";
import type { AppConfig } from "./config/app-config.ts";
import type { GitLabConfig } from "./config/gitlab-config.ts";
import { createPermissionCache } from "./conversation/permission-cache.ts";
import type { CancelReason } from "./domain/cancel-reason.ts";
import type { ReviewRequest } from "./domain/review-request.ts";
import { countedBudget } from "./fleet/budget-store-for.ts";
import { logFleetStart } from "./fleet/fleet-startup.ts";
import { DEFAULT_FLEET_TIMING, type FleetTiming } from "./fleet/fleet-timing.ts";
import { replyQueueFor } from "./fleet/reply-queue-for.ts";
import { reviewQueueFor } from "./fleet/review-queue-for.ts";
import { RERUN_ACTION } from "./forges/github/check-run.ts";
import { createCheckRuns } from "./forges/github/check-runs/check-runs.ts";
import { observeGitHubRequests } from "./forges/github/observe-requests.ts";
import type { GitHubClient } from "./forges/github/octokit.ts";
import { retryWithin } from "./forges/github/retry-deadline.ts";
import { gitLabReplyRunner } from "./forges/gitlab/run-gitlab-reply.ts";
import { gitLabRunner } from "./forges/gitlab/run-gitlab-review.ts";
import { completeLeftOpenRuns } from "./jobs/left-open-runs.ts";
import type { JobRunner, ReviewQueue } from "./jobs/review-queue.ts";
import { type AppBudget, runReview } from "./jobs/run-review.ts";
import { errorDetail } from "./log/error-detail.ts";
import { routeBottleneckErrors } from "./log/routed-errors.ts";
import { createDependencyStates, type DependencyState } from "./metrics/dependency-state.ts";
import { type Metrics, NO_METRICS } from "./metrics/metrics.ts";
import { readQueue } from "./metrics/queue-reading.ts";
import { createReviewEndedReporter } from "./metrics/review-ended.ts";
import type { ReviewPorts } from "./pipeline/review-ports.ts";
import { createCommentHandler } from "./replies/comment-handler.ts";
import { createReplyEndedReporter } from "./replies/reply-ending.ts";
import type { ReplyQueue, ReplyRunner } from "./replies/reply-queue.ts";
import { runReply } from "./replies/run-reply.ts";
import { deliveryFailure } from "./webhooks/delivery-failure.ts";
import { createReviewHandler } from "./webhooks/review-handler.ts";
import type { Workspace, WorkspaceHandle } from "./workspace/types.ts";

/** W: what the ports make of a fetched workspace (in this thread, or a handle to a worker's). */
export interface LoupeAppOptions<W extends WorkspaceHandle = Workspace> {
  readonly config: AppConfig;
  readonly ports: ReviewPorts<W>;
  readonly appId: number | null;
  /** Loupe's `<slug>[bot]` login; looked up with GET /app (the app's JWT) when not given. */
  readonly botLogin?: string;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The process's metrics port (deliveries, queue, review endings); none by default. */
  readonly metrics?: Metrics;
  /** REDIS_URL: the fleet's shared queue in Redis instead of this process's own queue. */
  readonly redisUrl?: string | null;
  readonly fleetTiming?: Partial<FleetTiming>;
  /** LOG_STILL_DOWN_SECONDS: how often a dependency still down is logged again. */
  readonly stillDownLogMs?: number;
  /** The clock commenters' permissions expire by in the cache (tests move it). */
  readonly now?: () => number;
  /** Spend caps per installation; their store is chosen like the queues (Redis, or this process). */
  readonly budget?: AppBudget;
  /** GitLab's instance and token: its merge requests' jobs run in the same queues. */
  readonly gitlab?: NonNullable<GitLabConfig>;
}

/** What runs once Probot has run the app: what the server shuts down and tests drain. */
export interface LoupeRuntime {
  readonly reviews: ReviewQueue;
  /** Replies in Loupe's threads, in a queue of their own. */
  readonly replies: ReplyQueue;
  /** The completion of the check runs an earlier process left open (LOUPE_STATE_DIR). */
  readonly recovery: Promise<void>;
  /** Redis's state (REDIS_URL), for the other connections the process opens to it and /readyz. */
  readonly redisHealth: DependencyState;
  /** GitLab's state (GITLAB_URL), as its API answers the process's calls: for /readyz. */
  readonly gitlabHealth: DependencyState;
}

export interface LoupeApp {
  readonly app: ApplicationFunction;
  /** Starts the queues without the GitHub App (GitLab alone), in place of the app function. */
  readonly withoutApp: (log: Probot["log"]) => void;
  /** Resolves once the app function has run, with its queues. */
  readonly started: Promise<LoupeRuntime>;
}

const HANDLED_EVENTS = ["pull_request", "check_run", "check_suite"] as const;
/** Comments in a pull request's conversation: commands, and replies in Loupe's threads. */
const CONVERSATION_EVENTS = ["issue_comment", "pull_request_review_comment"] as const;

/** How long the queued check run's request may keep retrying (waits of 1 s and 4 s). */
const ANNOUNCE_RETRY_MS = 5_000;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createLoupeApp<W extends WorkspaceHandle>(options: LoupeAppOptions<W>): LoupeApp {
  const started = Promise.withResolvers<LoupeRuntime>();
  const app = (probot: Probot) => {
    const botLogin = botLoginOf(probot, options.botLogin);
    const runtime = startRuntime(probot, options, botLogin);
    registerHandlers(probot, options, runtime, botLogin);
    started.resolve(runtime);
  };
  // GitLab alone: the same queues and runners, with no GitHub App to authenticate as.
  const withoutApp = (log: Probot["log"]) => {
    const github = withoutGitHub(log);
    started.resolve(startRuntime(github, options, github.login));
  };
  return { app, withoutApp, started: started.promise };
}

/** The journal of open runs, the recovery of an earlier process's, the runners and the queues. */
function startRuntime<W extends WorkspaceHandle>(
  app: GitHubAuth,
  options: LoupeAppOptions<W>,
  botLogin: () => Promise<string>,
): LoupeRuntime {
  const redisUrl = options.redisUrl ?? null;
  const journal = openRunsJournal(app, options.config.stateDir, redisUrl !== null);
  const metrics = options.metrics ?? NO_METRICS;
  const dependencies = createDependencyStates(app.log, metrics, options.stillDownLogMs ?? 60_000);
  if (redisUrl !== null) routeBottleneckErrors((error) => dependencies.redis.failed(error));
  // A job is plain data: whoever runs it authenticates as its installation (Probot caches the
  // installation token), and the journal sees every check run that client creates or completes.
  const installation = async (installationId: number): Promise<GitHubClient> => {
    const octokit = (await app.auth(installationId)) as unknown as GitHubClient;
    journal.watch(octokit, installationId);
    observeGitHubRequests(octokit, dependencies.github, app.log);
    return octokit;
  };
  const recovery = completeLeftOpenRuns({
    journal,
    auth: async (installationId) => (await app.auth(installationId)) as unknown as GitHubClient,
    log: app.log,
  }).catch((error: unknown) =>
    app.log.warn({ error: errorDetail(error) }, "left-open check runs not completed"),
  );
  const sleep = options.sleep ?? defaultSleep;
  const { config, ports } = options;
  const checkRuns = createCheckRuns({
    name: config.checkRunName,
    progressIntervalMs: config.progressIntervalMs,
    log: app.log,
    sleep,
  });
  const reviewEnded = createReviewEndedReporter(metrics, app.log);
  const budget = countedBudget(options.budget, {
    redisUrl,
    stateDir: config.stateDir,
    log: app.log,
    metrics,
  });
  const gitlab = gitLabRunner({
    ...{ ...options, ...budget, log: app.log, sleep, onEnded: reviewEnded },
    health: dependencies.gitlab,
  });
  const runner: JobRunner = async (job, signal, onCheckRun) => {
    if (job.request.forge === "gitlab") return gitlab(job, signal);
    return runReview({
      ...{ job, signal, ports, config, log: app.log, botLogin, sleep, checkRuns, onEnded: reviewEnded },
      ...{ ...budget, organisationConfigs: organisationConfigsFor(config, options.now), now: options.now },
      octokit: await installation(job.request.installationId),
      ...(onCheckRun ? { onCheckRun } : {}),
    });
  };
  const announce = async (request: ReviewRequest) => {
    // A merge request has no queued check run: its pending status is set once its review starts.
    if (request.forge === "gitlab") return null;
    const octokit = await installation(request.installationId).catch(() => null);
    if (octokit === null) return null;
    // The queued run is a courtesy (the job opens one if there is none): a short retry, not the
    // review's, so an unreachable GitHub does not add a series of retries before the review starts.
    retryWithin(octokit, Date.now() + ANNOUNCE_RETRY_MS);
    return await checkRuns.announce(octokit, request, request.headSha);
  };
  const cancel = async (r: ReviewRequest, runId: number, reason: CancelReason) => {
    if (r.forge === "github") await checkRuns.cancel(await installation(r.installationId), r, runId, reason);
  };
  const timing = {
    ...(options.fleetTiming ? { fleetTiming: options.fleetTiming } : {}),
    redisHealth: dependencies.redis,
  };
  if (redisUrl !== null)
    logFleetStart(app.log, redisUrl, { ...DEFAULT_FLEET_TIMING, ...options.fleetTiming }.lockMs);
  const reviews = reviewQueueFor({
    ...{ redisUrl, concurrency: config.reviewConcurrency, runner, log: app.log, announce, cancel },
    ...timing,
  });
  metrics.watchQueue(() => readQueue(reviews));
  const replyEnded = createReplyEndedReporter(metrics, app.log, options.budget?.settings.prices ?? null);
  const gitlabReply = gitLabReplyRunner({
    ...{ ports, config, log: app.log },
    ...options,
    ...budget,
    onEnded: replyEnded,
  });
  const replyRunner: ReplyRunner = async (request, signal) =>
    request.forge === "gitlab"
      ? gitlabReply(request, signal)
      : runReply({
          ...{ request, signal, ports, config, log: app.log, botLogin, onEnded: replyEnded },
          ...budget,
          octokit: await installation(request.installationId),
        });
  const replies = replyQueueFor({
    ...{ redisUrl, concurrency: config.replyConcurrency, runner: replyRunner, log: app.log },
    ...timing,
  });
  return { reviews, replies, recovery, redisHealth: dependencies.redis, gitlabHealth: dependencies.gitlab };
}

/** The handlers only map and enqueue; every other event the App receives is counted, not handled. */
function registerHandlers<W extends WorkspaceHandle>(
  app: Probot,
  options: LoupeAppOptions<W>,
  runtime: LoupeRuntime,
  botLogin: () => Promise<string>,
): void {
  const metrics = options.metrics ?? NO_METRICS;
  const { reviews, replies } = runtime;
  app.on(
    [...HANDLED_EVENTS],
    createReviewHandler({
      queue: reviews,
      metrics,
      appId: options.appId,
      rerunIdentifier: RERUN_ACTION.identifier,
    }),
  );
  app.on(
    [...CONVERSATION_EVENTS],
    createCommentHandler({
      botLogin,
      enqueueReview: (request) => reviews.enqueue(request),
      enqueueReply: (request) => replies.enqueue(request),
      onOutcome: (event, outcome) => metrics.webhookDelivery(event, outcome),
      permissions: createPermissionCache(options.now ? { now: options.now } : {}),
    }),
  );
  app.on("push", organisationPushHandler(options, metrics, app.log));
  const known: readonly string[] = [...HANDLED_EVENTS, ...CONVERSATION_EVENTS, "push"];
  app.onAny((event) => {
    if (!known.includes(event.name)) metrics.webhookDelivery(event.name, "ignored");
  });
  app.onError(async (error) => {
    const failure = deliveryFailure(error);
    metrics.webhookDelivery(failure.event, failure.outcome);
  });
}
