// `npm start`. Reads the environment (and `.env`; empty values are unset, the environment wins)
// once, through the settings schemas, then either serves Loupe's setup flow (no App credentials
// yet) or runs the App with Probot, after the checks Probot skips: a strong webhook secret, a
// chosen model endpoint and model, a writable state directory. Any problem stops it before it
// listens, every problem on its own line. SIGTERM drains the queue so every check run is
// completed. /healthz and /readyz answer in both modes, /metrics once the App runs.

import { readFileSync } from "node:fs";
import path from "node:path";
import type { AppSettings } from "./config/app-settings.ts";
import { loadEnvironment } from "./config/load-env.ts";
import { readStartup } from "./config/startup.ts";
import { openDashboard } from "./dashboard/open-dashboard.ts";
import type { RedisDashboard } from "./dashboard/redis-dashboard.ts";
import { redactSecrets, registerSecret } from "./domain/redact.ts";
import { checkForgesAtStart } from "./forge-registry.ts";
import { loadFleet } from "./fleet/fleet.ts";
import { withWriteSpacing } from "./forges/github/write-spacing.ts";
import { startAppServer } from "./http/app-server.ts";
import { createOpsRoutes } from "./http/ops-routes.ts";
import { createReadinessTracker } from "./http/readiness.ts";
import { createLoupe } from "./index.ts";
import { shutDownProcess } from "./jobs/process-shutdown.ts";
import { createLog } from "./log/create-log.ts";
import type { Logger } from "./log/job-logger.ts";
import { createPrometheusMetrics } from "./metrics/prometheus-metrics.ts";
import { readAppYml } from "./setup/app-manifest.ts";
import { startSetupServer } from "./setup/setup-server.ts";

async function main(): Promise<void> {
  const env = loadEnvironment(process.env, path.join(process.cwd(), ".env"));
  const startup = readStartup(env);
  if (startup.kind === "invalid") {
    for (const line of startup.errors) process.stderr.write(`loupe: ${redactSecrets(line)}\n`);
    process.exit(1);
  }
  if (startup.kind === "setup") {
    const server = await startSetupServer({
      env,
      envFile: path.join(process.cwd(), ".env"),
      appYml: readAppYml(),
      host: startup.server.host,
      port: startup.server.port,
      log: (line) => process.stdout.write(`${line}\n`),
    });
    process.once("SIGTERM", () => server.close(() => process.exit(0)));
    return;
  }
  const { settings: configured } = startup;
  const { app: config, metricsToken, dashboard: dashboardCredentials } = configured;
  registerOperatorSecrets(configured);
  // Without the GitHub App no Probot runs: its lines are not labelled as Probot's.
  const log = await createLog(configured.log, configured.appId === null ? "loupe" : "probot");
  const version = logVersion(log);
  const settings = await checkForgesAtStart(configured, log);
  if ("stop" in settings) {
    process.stderr.write(`loupe: ${redactSecrets(settings.stop)}\n`);
    process.exit(1);
  }
  const metrics = createPrometheusMetrics({ version });
  const readiness = createReadinessTracker();
  const fleet = await loadFleet(settings.fleet.redisUrl);
  const loupe = createLoupe(settings, { fleet, metrics, stillDownLogMs: config.stillDownLogMs });
  let dashboard: RedisDashboard | null = null;
  const server = await startAppServer({
    env,
    log,
    webhookSecret: settings.webhookSecret,
    metrics,
    host: settings.host,
    port: settings.port,
    octokit: withWriteSpacing(settings.github.writeSpacingMs),
    app: async (probot, options) => {
      // Without the GitHub App (GitLab alone) the queues start without Probot.
      if (probot === null) loupe.withoutApp(log);
      else await loupe.app(probot, options);
      const app = { log: probot?.log ?? log };
      options.addHandler(createOpsRoutes({ readiness: readiness.check, metrics, metricsToken }));
      const { redisHealth, routes } = await loupe.started; // resolved by loupe.app above
      // Each forge's own routes (GitLab's webhook); GitHub's come through Probot.
      for (const route of routes) options.addHandler(route);
      dashboard = await openDashboard({
        credentials: dashboardCredentials,
        redisUrl: settings.fleet.redisUrl,
        log: app.log,
        redisHealth,
      });
      if (dashboard !== null) options.addHandler(dashboard.handler);
    },
  });
  const runtime = await loupe.started;
  // A shared queue: while Redis takes work; when it does not, /readyz says Redis is why.
  readiness.queueStarted(
    () => runtime.reviews.isReady(),
    () => runtime.redisHealth.isDown(),
  );
  readiness.dependencyProblem(() => runtime.notReady());
  process.once("SIGTERM", () => {
    readiness.shuttingDown();
    void shutDownProcess({
      graceMs: config.shutdownGraceMs,
      log,
      queues: [runtime.reviews, runtime.replies],
      after: [
        () => runtime.closeForges(),
        () => runtime.workers.close(),
        () => server.stop(),
        () => dashboard?.close(),
      ],
      exit: (code) => exitAfterLog(code),
    });
  });
}

/** Never released: wherever one of these shows up in a log line, it is redacted. */
function registerOperatorSecrets(configured: AppSettings): void {
  const { gitlab, dashboard } = configured;
  for (const secret of [
    configured.webhookSecret,
    configured.metricsToken,
    dashboard?.password,
    gitlab?.token,
    gitlab?.webhookSecret,
  ])
    registerSecret(secret ?? undefined);
}

/** The log's first line says which Loupe this is (loupe_build_info says it to the metrics). */
function logVersion(log: Logger): string {
  const version = packageVersion();
  log.info({ version, node: process.version }, `Loupe ${version} starting`);
  return version;
}

/** Loupe's version, for loupe_build_info. */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version?: unknown;
  };
  return typeof pkg.version === "string" ? pkg.version : "unknown";
}

/** The log's lines go through a stream: they are written out before the process ends. */
function exitAfterLog(code: number): void {
  setImmediate(() => setImmediate(() => process.stdout.write("", () => process.exit(code))));
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`loupe: ${redactSecrets(message)}\n`);
  process.exit(1);
});
