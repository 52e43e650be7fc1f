// The App's HTTP server, in place of Probot's `run()` and its Server. Probot's Server puts its
// webhook middleware before every handler an app adds (so nothing could bound a body before
// Probot read it whole) and logs each request with pino-http (every header included; its
// `loggingOptions` are declared but never read). Here the order is Loupe's: the access log,
// the webhook guard in front of Probot's middleware, Probot's /ping, the handlers the app adds
// (/healthz, /readyz, /metrics, /queues), 404. Probot itself is the same: createProbot reads the
// same variables, with the process's logger, the webhook secret Loupe checked at startup and
// the GitHub forge's Octokit (its writes spaced as GITHUB_WRITE_SPACING_MS says).

import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { type ApplicationFunctionOptions, createProbot, type Probot, type ProbotOctokit } from "probot";
import { WEBHOOK_PATH } from "../config/webhook-target.ts";
import { errorDetail } from "../log/error-detail.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { createAccessLog } from "./access-log.ts";
import { createWebhookGuard } from "./webhook-guard.ts";
import { startWebhookProxy } from "./webhook-proxy.ts";

type Env = Readonly<Record<string, string | undefined>>;
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

export interface AppServerOptions {
  readonly env: Env;
  readonly log: Logger;
  /** The GitHub App's webhook secret; null when Loupe serves GitLab alone (no Probot, no GitHub route). */
  readonly webhookSecret: string | null;
  readonly metrics: Metrics;
  readonly host: string;
  readonly port: number;
  /** Probot's app function; given null for Probot when there is no GitHub App. */
  readonly app: (probot: Probot | null, options: ApplicationFunctionOptions) => Promise<void>;
  /** Probot's Octokit (the GitHub forge's: its writes spaced as GITHUB_WRITE_SPACING_MS says). */
  readonly octokit: typeof ProbotOctokit;
}

export interface AppServer {
  readonly port: number;
  stop(): Promise<void>;
}

const ping: Handler = (req, res) => {
  if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/ping") return false;
  res.writeHead(200, { "content-type": "text/plain" }).end("PONG");
  return true;
};

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const { log } = options;
  const added: Handler[] = [];
  const addHandler = (handler: Handler) => added.push(handler);
  const secret = options.webhookSecret;
  let guard: Handler | null = null;
  if (secret === null) await options.app(null, { cwd: process.cwd(), addHandler });
  else {
    const probot = createProbot({
      env: options.env,
      overrides: { log, secret, Octokit: options.octokit },
    });
    await probot.load((app) => options.app(app, { cwd: process.cwd(), addHandler }), {
      cwd: process.cwd(),
      addHandler,
    });
    guard = createWebhookGuard({
      path: WEBHOOK_PATH,
      secret,
      log: log.child({ name: "webhooks" }),
      onRefused: (reason) => options.metrics.webhookDelivery("unverified", reason),
      next: await probot.getNodeMiddleware({ path: WEBHOOK_PATH }),
    });
  }
  const handlers: Handler[] = [...(guard === null ? [] : [guard]), ping, ...added];
  const accessLog = createAccessLog(log.child({ name: "http" }));
  const server = http.createServer((req, res) => {
    accessLog(req, res);
    void (async () => {
      for (const handler of handlers) if (await handler(req, res)) return;
      if (!res.headersSent) res.writeHead(404).end();
    })().catch((error: unknown) => {
      log.error({ error: errorDetail(error) }, "request failed");
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const port = await listen(server, options.port, options.host);
  log.info(`Listening on http://${options.host}:${port}`);
  const proxy =
    secret === null
      ? null
      : await startWebhookProxy({
          source: options.env.WEBHOOK_PROXY_URL,
          target: `http://${options.host}:${port}${WEBHOOK_PATH}`,
          log,
        });
  return {
    port,
    async stop() {
      await proxy?.stop();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
