// The operator's view of the fleet's queue: bull-board's dashboard (@bull-board/api with its
// Express adapter) served under DASHBOARD_PATH on the App's own HTTP server, behind Basic
// authentication. Probot's server takes plain node:http handlers that answer whether they served
// the request (as the ops routes do); an Express app is itself such a listener, so the adapter's
// app is called directly for requests under the path, and every other request never reaches it.
//
// Read-only on purpose: retrying, removing or promoting a job by hand would bypass the fleet's own
// bookkeeping (one review per pull request, the superseding head, the check run's id), so the
// dashboard shows jobs, their data and their errors, and bull-board refuses every change (405).

import type http from "node:http";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import type { Queue } from "bullmq";
import type { DashboardCredentials } from "../config/dashboard-config.ts";
import { BASIC_CHALLENGE, basicAuthorized } from "./basic-auth.ts";

/** Where the dashboard is served (documented in docs/deploy.md, "Scale out"). */
export const DASHBOARD_PATH = "/queues";

export interface QueueDashboardOptions {
  /** BullMQ handles of the queues to show (any connection; the dashboard only reads). */
  readonly queues: readonly Queue[];
  readonly credentials: DashboardCredentials;
}

export type DashboardHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean>;

type ExpressListener = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** The path below DASHBOARD_PATH ("/" for the path itself), or null for any other URL. */
function below(url: string): string | null {
  if (url === DASHBOARD_PATH || url.startsWith(`${DASHBOARD_PATH}?`))
    return `/${url.slice(DASHBOARD_PATH.length)}`;
  if (url.startsWith(`${DASHBOARD_PATH}/`)) return url.slice(DASHBOARD_PATH.length);
  return null;
}

export function createQueueDashboard(options: QueueDashboardOptions): DashboardHandler {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: options.queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: true })),
    serverAdapter,
    options: { uiConfig: { boardTitle: "Loupe queue" } },
  });
  const app = serverAdapter.getRouter() as ExpressListener;
  return async (req, res) => {
    const original = req.url ?? "/";
    const inner = below(original);
    if (inner === null) return false;
    if (!basicAuthorized(req.headers.authorization, options.credentials)) {
      res.writeHead(401, {
        "www-authenticate": BASIC_CHALLENGE,
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "no-store",
      });
      res.end(`${DASHBOARD_PATH} needs the user and password of DASHBOARD_USER and DASHBOARD_PASSWORD\n`);
      return true;
    }
    // What `app.use(DASHBOARD_PATH, app)` would do in an Express server: the adapter's routes are
    // relative to the mount point, and redirects read the original URL.
    return new Promise<boolean>((resolve, reject) => {
      Object.assign(req, { url: inner, originalUrl: original });
      res.once("close", () => resolve(true));
      app(req, res, (error?: unknown) => {
        req.url = original;
        // An error: the server logs it and answers 500. No route: the server's 404 answers.
        if (error !== undefined && !res.headersSent) reject(error);
        else resolve(res.headersSent);
      });
    });
  };
}
