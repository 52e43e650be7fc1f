// The operator's endpoints: GET /healthz (the process answers), GET /readyz (it would take a
// review now: 503 with the reason otherwise) and GET /metrics (Prometheus text). A plain node:http
// handler that answers true when it served the request, so both the App's server and the setup
// server mount it. /metrics may ask for a bearer token: its numbers say how busy the service is
// and which tools the model uses, which an operator may not want public next to the webhook URL.

import crypto from "node:crypto";
import type http from "node:http";

export type Readiness = { readonly ready: true } | { readonly ready: false; readonly reason: string };

export interface MetricsSource {
  render(): Promise<{ readonly contentType: string; readonly body: string }>;
}

export interface OpsRoutesOptions {
  /** Asked on every GET /readyz; the server composes it (configuration, queue, shutdown). */
  readonly readiness: () => Readiness;
  /** null: GET /metrics is 404 (the setup server has nothing to measure). */
  readonly metrics: MetricsSource | null;
  /** METRICS_TOKEN: when set, GET /metrics needs `Authorization: Bearer <token>`. */
  readonly metricsToken: string | null;
}

export type OpsHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean>;

const digest = (text: string) => crypto.createHash("sha256").update(text).digest();

function authorized(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  // Equal-length digests, compared in constant time: the comparison leaks neither length nor prefix.
  return match !== null && crypto.timingSafeEqual(digest(match[1]!), digest(token));
}

function text(
  res: http.ServerResponse,
  status: number,
  body: string,
  headers: http.OutgoingHttpHeaders = {},
) {
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    ...headers,
  });
  res.end(body);
}

export function createOpsRoutes(options: OpsRoutesOptions): OpsHandler {
  return async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/healthz") {
      text(res, 200, "ok\n");
      return true;
    }
    if (path === "/readyz") {
      const state = options.readiness();
      if (state.ready) text(res, 200, "ready\n");
      else text(res, 503, `not ready: ${state.reason}\n`);
      return true;
    }
    if (path === "/metrics" && options.metrics !== null) {
      if (options.metricsToken !== null && !authorized(req.headers.authorization, options.metricsToken)) {
        text(res, 401, "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>\n", {
          "www-authenticate": 'Bearer realm="loupe-metrics"',
        });
        return true;
      }
      const { contentType, body } = await options.metrics.render();
      res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
      res.end(body);
      return true;
    }
    return false;
  };
}
