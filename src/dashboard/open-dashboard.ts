// Whether `npm start` serves the queue dashboard: only for a fleet (REDIS_URL: the single
// process's queue lives in its memory, with nothing for bull-board to read) and only with
// DASHBOARD_PASSWORD (never open). A password without REDIS_URL is said once in the log, so an
// operator who expected a dashboard learns why there is none. bull-board and bullmq are loaded only
// then: a process without a dashboard never pays for them.

import type { DashboardCredentials } from "../config/dashboard-config.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { RedisDashboard, RedisDashboardOptions } from "./redis-dashboard.ts";

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
export async function openDashboard(settings: DashboardSettings): Promise<RedisDashboard | null> {
  const { credentials, redisUrl, log, redisHealth } = settings;
  if (credentials === null) return null;
  if (redisUrl === null) {
    log.warn({}, "DASHBOARD_PASSWORD is set but REDIS_URL is not: no queue dashboard for the single process");
    return null;
  }
  const [{ DASHBOARD_PATH }, { openRedisDashboard }] = await Promise.all([
    import("./queue-dashboard.ts"),
    import("./redis-dashboard.ts"),
  ]);
  log.info({ path: DASHBOARD_PATH, user: credentials.user }, "queue dashboard");
  return openRedisDashboard({ redisUrl, credentials, redisHealth });
}
