// Everything the App's process reads from its environment, read once at start and passed down:
// the App itself, the fleet, the loop's and replies' budgets, the provider, the repository
// workers, the port, and the operator endpoints' credentials. Each reader stops Loupe with one
// line naming its variable; they run in the order an operator meets them in the README.

import { type AppConfig, readAppConfig } from "./app-config.ts";
import { type DashboardCredentials, readDashboardCredentials } from "./dashboard-config.ts";
import { type FleetConfig, readFleetConfig } from "./fleet-config.ts";
import type { Env } from "./load-env.ts";
import { type ProviderConfig, readProviderConfig } from "./provider-config.ts";
import { readReplyLimits } from "./reply-limits.ts";
import { type ReviewLimits, readReviewLimits } from "./review-limits.ts";
import { readMetricsToken, readPort } from "./server-config.ts";
import { readWorkerConfig, type WorkerConfig } from "./worker-config.ts";

export interface AppSettings {
  readonly app: AppConfig;
  /** The GitHub App's id (APP_ID), when it is a number. */
  readonly appId: number | null;
  readonly metricsToken: string | null;
  readonly dashboard: DashboardCredentials | null;
  readonly fleet: FleetConfig;
  readonly limits: ReviewLimits;
  readonly replyLimits: ReviewLimits;
  readonly provider: ProviderConfig;
  readonly workers: WorkerConfig;
  readonly port: number;
}

export function readAppSettings(env: Env): AppSettings {
  const app = readAppConfig(env);
  const metricsToken = readMetricsToken(env);
  const dashboard = readDashboardCredentials(env);
  const fleet = readFleetConfig(env);
  const limits = readReviewLimits(env);
  const replyLimits = readReplyLimits(env, limits);
  const provider = readProviderConfig(env);
  const workers = readWorkerConfig(env, app.reviewConcurrency);
  const appId = env.APP_ID && /^\d+$/.test(env.APP_ID) ? Number(env.APP_ID) : null;
  return {
    app,
    appId,
    metricsToken,
    dashboard,
    fleet,
    limits,
    replyLimits,
    provider,
    workers,
    port: readPort(env),
  };
}
