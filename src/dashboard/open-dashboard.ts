// Whether `npm start` serves the queue dashboard: only for a fleet (REDIS_URL: the single
// process's queue lives in its memory, with nothing for bull-board to read) and only with
// DASHBOARD_PASSWORD (never open). A password without REDIS_URL is said once in the log, so an
// operator who expected a dashboard learns why there is none.

import type { DashboardCredentials } from "../config/dashboard-config.ts";
import type { JobLogger } from "../log/job-logger.ts";
import { DASHBOARD_PATH } from "./queue-dashboard.ts";
import { openRedisDashboard, type RedisDashboard, type RedisDashboardOptions } from "./redis-dashboard.ts";

export interface DashboardSettings {
  /** DASHBOARD_USER / DASHBOARD_PASSWORD, read (and refused when bad) before the server starts. */
  readonly credentials: DashboardCredentials | null;
  /** REDIS_URL, or null for the single process. */
  readonly redisUrl: string | null;
  readonly log: JobLogger;
  /** The process's Redis state (metrics/dependency-state.ts), which the dashboard's connection reports to. */
  readonly redisHealth: RedisDashboardOptions["redisHealth"];
}

/** The dashboard to mount on the App's server, or null. */
export function openDashboard(settings: DashboardSettings): RedisDashboard | null {
  const { credentials, redisUrl, log, redisHealth } = settings;
  if (credentials === null) return null;
  if (redisUrl === null) {
    log.warn({}, "DASHBOARD_PASSWORD is set but REDIS_URL is not: no queue dashboard for the single process");
    return null;
  }
  log.info({ path: DASHBOARD_PATH, user: credentials.user }, "queue dashboard");
  return openRedisDashboard({ redisUrl, credentials, redisHealth });
}
