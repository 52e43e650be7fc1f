// The Probot app: reads the operator's configuration and registers Loupe's handlers, nothing else.
// The review ports it gives them run the repository work in a pool of worker threads, so that no
// repository, however hostile, holds the event loop that serves webhooks and /healthz.

import type { ApplicationFunction } from "probot";
import { createLoupeApp, type LoupeRuntime } from "./app.ts";
import { type AppSettings, AppSettingsSchema } from "./config/app-settings.ts";
import { readEnvOrThrow } from "./config/read-env.ts";
import { type Fleet, loadFleet } from "./fleet/fleet.ts";
import { providerGateFor } from "./fleet/provider-gate-for.ts";
import { createIsolatedPorts } from "./isolation/isolated-ports.ts";
import { repositoryWorkerEntry } from "./isolation/worker-entry.ts";
import { createWorkerPool, type WorkerPool } from "./isolation/worker-pool.ts";
import { deadlineGraceMs } from "./isolation/worker-thread.ts";
import type { Logger } from "./log/job-logger.ts";
import type { Metrics } from "./metrics/metrics.ts";

export interface LoupeFromEnvOptions {
  /** REDIS_URL's fleet, loaded (loadFleet), or null for the single process. */
  readonly fleet: Fleet | null;
  readonly metrics?: Metrics;
  /** LOG_STILL_DOWN_SECONDS, in ms: how often a dependency still down is logged again. */
  readonly stillDownLogMs?: number;
}

/** What runs once Probot has run the app, with the pool of repository workers to end at shutdown. */
export interface LoupeProcessRuntime extends LoupeRuntime {
  readonly workers: WorkerPool;
}

export function createLoupe(
  settings: AppSettings,
  options: LoupeFromEnvOptions,
): {
  readonly app: ApplicationFunction;
  /** GitLab alone: the queues and runners without the GitHub App. */
  readonly withoutApp: (log: Logger) => void;
  readonly started: Promise<LoupeProcessRuntime>;
} {
  const { app: config, limits, replyLimits, provider, workers, appId } = settings;
  const { lockMs } = settings.fleet;
  const metrics = options.metrics;
  const started = Promise.withResolvers<LoupeProcessRuntime>();
  const build = (log: Logger) => {
    // Where the operator's key goes, said once at startup (the host only: a path may carry an id).
    log.info({ provider_host: new URL(provider.baseURL).host, model: provider.model }, "model provider");
    const pool = createWorkerPool({
      size: workers.threads,
      entry: repositoryWorkerEntry(),
      setup: { provider, limits, replyLimits, includeTrace: true },
      memoryMb: workers.memoryMb,
      graceMs: deadlineGraceMs(limits.timeoutMs),
      gate: providerGateFor(settings.providerShare, options.fleet, {
        ...(metrics === undefined
          ? {}
          : {
              observer: {
                waiting: (delta) => metrics.providerWaiting(delta),
                tokensInMinute: (tokens) => metrics.providerTokensInMinute(tokens),
                backOff: (seconds) => metrics.providerBackOff(seconds),
              },
            }),
      }),
      onToolCall: (tool, ok) => metrics?.toolCall(tool, ok),
      onDependencyError: (dependency, kind) => metrics?.dependencyError(dependency, kind),
      onWorkerEnded: (reason) => log.warn({ reason }, "repository worker ended; a new one will replace it"),
    });
    // Started now rather than by the first review, which would otherwise wait for a worker to load
    // its modules; a review arriving meanwhile shares the start already under way.
    void pool.warm().then((warm) => {
      log.info(warm, "repository workers started");
      if (warm.abandonedDirsRemoved > 0)
        log.warn(
          { removed: warm.abandonedDirsRemoved },
          "removed the repository workers' directories that stopped Loupe processes left behind",
        );
    });
    const ports = createIsolatedPorts({ pool, limits, replyLimits });
    const loupe = createLoupeApp({
      config,
      ports,
      appId,
      ...(metrics ? { metrics } : {}),
      fleet: options.fleet,
      ...(settings.gitlab === null ? {} : { gitlab: settings.gitlab }),
      budget: {
        settings: settings.budget,
        maxTokens: limits.maxTokens,
        replyMaxTokens: replyLimits.maxTokens,
      },
      ...(options.stillDownLogMs === undefined ? {} : { stillDownLogMs: options.stillDownLogMs }),
      fleetTiming: { lockMs, stalledIntervalMs: lockMs / 2, leaseMs: 2 * lockMs },
    });
    void loupe.started.then((runtime) => started.resolve({ ...runtime, workers: pool }));
    return loupe;
  };
  const app: ApplicationFunction = async (app, appOptions) => {
    await build(app.log).app(app, appOptions);
  };
  const withoutApp = (log: Logger) => build(log).withoutApp(log);
  return { app, withoutApp, started: started.promise };
}

// Probot's own runner loads this file with no `.env` of Loupe's: the environment alone, empty
// values unset as `npm start` reads them, through the same schema.
const app: ApplicationFunction = async (probot, options) => {
  const settings = readEnvOrThrow(AppSettingsSchema, process.env);
  const fleet = await loadFleet(settings.fleet.redisUrl);
  await createLoupe(settings, { fleet }).app(probot, options);
};
export default app;
