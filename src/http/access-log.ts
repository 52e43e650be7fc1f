// One log line per HTTP request, in place of Probot's pino-http access log: that one serialises
// every request header, so the METRICS_TOKEN bearer, the dashboard's Basic credentials and any
// cookie reached the log on every request. This one writes an allowlist — method, path and query
// with credential values removed, status, time, the delivery or request id — and no header else.

import type http from "node:http";
import { redactLogText } from "../log/create-log.ts";
import type { Logger } from "../log/job-logger.ts";

/** A URL or id an attacker chose is cut: the line stays one short line. */
const MAX_URL_CHARS = 300;
const MAX_ID_CHARS = 100;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function header(req: http.IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === "string" && value !== "" ? value : null;
}

export function createAccessLog(
  log: Pick<Logger, "info" | "error">,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    const started = performance.now();
    const requested = req.url ?? "/"; // read now: a mounted router (the dashboard) rewrites req.url
    res.once("close", () => {
      const url = cut(redactLogText(requested), MAX_URL_CHARS);
      const id = header(req, "x-github-delivery") ?? header(req, "x-request-id");
      const responseTime = Math.round(performance.now() - started);
      const status = res.headersSent ? res.statusCode : 0; // 0: the client left before an answer
      const line = {
        req: {
          ...(id === null ? {} : { id: cut(redactLogText(id), MAX_ID_CHARS) }),
          method: req.method,
          url,
          remoteAddress: req.socket.remoteAddress,
        },
        res: { statusCode: status },
        responseTime,
      };
      const msg = `${req.method} ${url} ${status} - ${responseTime}ms`;
      if (status >= 500) log.error(line, msg);
      else log.info(line, msg);
    });
  };
}
