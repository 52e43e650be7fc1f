// Builds the Probot app function: the queues, the forges that feed them and run their jobs, and
// the one review job and one reply job every forge's work runs through. Options are injected so
// tests pass the scripted provider, a local git base URL and fake sleeps. The queues exist only
// once Probot runs the function (the GitHub forge authenticates through it), or once a process
// without the GitHub App starts them itself, so the caller receives them as `started`, a promise
// of what is running, rather than through callbacks.

import type { ApplicationFunction, Probot } from "probot";
import type { AppConfig } from "./config/app-config.ts";
import type { GitLabConfig } from "./config/gitlab-config.ts";
import { budgetOwnerOf } from "./domain/budget.ts";
import { countedBudget } from "./fleet/budget-store-for.ts";
import type { Fleet } from "./fleet/fleet.ts";
import { logFleetStart } from "./fleet/fleet-startup.ts";
import { DEFAULT_FLEET_TIMING, type FleetTiming } from "./fleet/fleet-timing.ts";
import { replyQueueFor } from "./fleet/reply-queue-for.ts";
import { reviewQueueFor } from "./fleet/review-queue-for.ts";
import type { Route } from "./forge/forge.ts";
import { runReply } from "./forge/run-reply.ts";
import { type AppBudget, jobLog, runReview } from "./forge/run-review.ts";
import { type ServedForges, startForges } from "./forge-registry.ts";
import type { JobRunner, ReviewQueue } from "./jobs/review-queue.ts";
import type { Logger } from "./log/job-logger.ts";
import { routeBottleneckErrors } from "./log/routed-errors.ts";
import { createDependencyStates, type DependencyState } from "./metrics/dependency-state.ts";
import { type Metrics, NO_METRICS } from "./metrics/metrics.ts";
import { readQueue } from "./metrics/queue-reading.ts";
import { createReviewEndedReporter } from "./metrics/review-ended.ts";
import type { ReviewPorts } from "./pipeline/review-ports.ts";
import { createReplyEndedReporter } from "./replies/reply-ending.ts";
import type { ReplyQueue, ReplyRunner } from "./replies/reply-queue.ts";
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
  /** REDIS_URL's fleet (loadFleet): its shared queues in Redis instead of this process's own. */
  readonly fleet?: Fleet | null;
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
  /** The completion of the reports an earlier process left open (LOUPE_STATE_DIR). */
  readonly recovery: Promise<void>;
  /** Redis's state (REDIS_URL), for the other connections the process opens to it and /readyz. */
  readonly redisHealth: DependencyState;
  /** Why the process is not ready on a forge's account (a setting no waiting fixes), or null: for /readyz. */
  notReady(): string | null;
  /** The forges' own routes (GitLab's webhook), for the server to mount. */
  readonly routes: readonly Route[];
  /** At shutdown, after the queues: what the forges hold. */
  closeForges(): void;
}

export interface LoupeApp {
  readonly app: ApplicationFunction;
  /** Starts the queues without the GitHub App (GitLab alone), in place of the app function. */
  readonly withoutApp: (log: Logger) => void;
  /** Resolves once the app function has run, with its queues. */
  readonly started: Promise<LoupeRuntime>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createLoupeApp<W extends WorkspaceHandle>(options: LoupeAppOptions<W>): LoupeApp {
  const started = Promise.withResolvers<LoupeRuntime>();
  const app = (probot: Probot) => {
    const github = {
      probot,
      appId: options.appId,
      ...(options.botLogin ? { botLogin: options.botLogin } : {}),
    };
    started.resolve(startRuntime(probot.log, options, github));
  };
  const withoutApp = (log: Logger) => started.resolve(startRuntime(log, options, null));
  return { app, withoutApp, started: started.promise };
}

/** The queues, the forges this process serves, and the one job runner of each kind. */
function startRuntime<W extends WorkspaceHandle>(
  log: Logger,
  options: LoupeAppOptions<W>,
  github: Parameters<typeof startForges>[0]["github"],
): LoupeRuntime {
  const fleet = options.fleet ?? null;
  const metrics = options.metrics ?? NO_METRICS;
  const dependencies = createDependencyStates(log, metrics, options.stillDownLogMs ?? 60_000);
  if (fleet !== null) routeBottleneckErrors((error) => dependencies.redis.failed(error));
  const { config, ports } = options;
  const onReviewEnded = createReviewEndedReporter(metrics, log);
  const onReplyEnded = createReplyEndedReporter(metrics, log, options.budget?.settings.prices ?? null);
  const { budget } = countedBudget(options.budget, { fleet, stateDir: config.stateDir, log, metrics });
  // The forges are started once the queues exist (their webhooks enqueue); a job runs only after.
  let forges: ServedForges<W> | null = null;
  const served = () => forges!;
  const common = { ports, authorPolicy: config.autoReviewAuthors, now: options.now };
  const runner: JobRunner = async (job, signal, onCheckRun) => {
    const { request } = job;
    const change = { repository: `${request.owner}/${request.repo}`, pullNumber: request.pullNumber };
    return runReview(
      {
        ...{ ...common, request, signal, log: jobLog(log, request) },
        onEnded: (ended) => onReviewEnded({ ...change, ...ended }),
        ...(budget ? { budget: { app: budget, owner: budgetOwnerOf(job.request) } } : {}),
      },
      await served().of(request.forge).review(job, signal, onCheckRun),
    );
  };
  const timing = {
    ...(options.fleetTiming ? { fleetTiming: options.fleetTiming } : {}),
    redisHealth: dependencies.redis,
  };
  if (fleet !== null)
    logFleetStart(log, fleet.redisUrl, { ...DEFAULT_FLEET_TIMING, ...options.fleetTiming }.lockMs);
  const reviews = reviewQueueFor({
    ...{ fleet, concurrency: config.reviewConcurrency, runner, log },
    // A forge with no report while a job waits (GitLab's status is set once the review starts) has none.
    announce: async (request) => (await served().of(request.forge).announce?.(request)) ?? null,
    cancel: async (request, reportId, reason) =>
      served().of(request.forge).cancel?.(request, reportId, reason),
    ...timing,
  });
  metrics.watchQueue(() => readQueue(reviews));
  const replyRunner: ReplyRunner = async (request, signal) =>
    runReply(
      { ...common, request, signal, log, onEnded: onReplyEnded, ...(budget ? { budget } : {}) },
      await served().of(request.forge).reply(request, signal),
    );
  const replies = replyQueueFor({
    ...{ fleet, concurrency: config.replyConcurrency, runner: replyRunner, log },
    ...timing,
  });
  const sleep = options.sleep ?? defaultSleep;
  forges = startForges(
    { github, gitlab: options.gitlab ?? null },
    {
      ...{ config, ports, log, metrics, dependencies, sleep },
      ...(options.now ? { now: options.now } : {}),
      queues: { reviews, replies },
      fleet: fleet !== null,
    },
  );
  const all = forges.all;
  return {
    reviews,
    replies,
    recovery: Promise.all(all.map((forge) => forge.recovery)).then(() => {}),
    redisHealth: dependencies.redis,
    notReady: () =>
      all.map((forge) => forge.notReady?.() ?? null).find((problem) => problem !== null) ?? null,
    routes: all.flatMap((forge) => forge.routes),
    closeForges: () => {
      for (const forge of all) forge.close();
    },
  };
}
