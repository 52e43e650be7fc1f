// What stands before Probot's webhook middleware, which would read any body whole before checking
// its signature and log an unverified delivery's payload with the error. Here a body over GitHub's
// 25 MB cap is refused 413 before it is read (by its Content-Length, or as soon as a chunked body
// passes the cap), the signature is checked on the bytes read, and a delivery that does not match
// is refused 400 with one short log line and a count on /metrics: Probot only ever sees deliveries
// that are GitHub's. Probot checks the signature again; that costs one HMAC.

import crypto from "node:crypto";
import type http from "node:http";
import type { Logger } from "../log/job-logger.ts";
import { declaredLength, readBoundedBody } from "./webhook-body.ts";

/** GitHub caps webhook payloads at 25 MB; it does not send larger ones. */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

export type WebhookRefusal = "bad_signature" | "too_large";

export interface WebhookGuardOptions {
  readonly path: string;
  readonly secret: string;
  readonly maxBytes?: number;
  readonly log: Pick<Logger, "warn">;
  /** One count per refused delivery (metrics: event "unverified"). */
  readonly onRefused: (reason: WebhookRefusal) => void;
  /** Probot's webhook middleware, given the body already read and verified. */
  readonly next: (req: http.IncomingMessage, res: http.ServerResponse) => unknown;
}

const REQUIRED_HEADERS = ["x-github-event", "x-github-delivery", "x-hub-signature-256"];
const JSON_TYPE = /^\s*application\/json\s*(?:;|$)/i;
const SECRET_HINT = "check that WEBHOOK_SECRET is the App's webhook secret (its settings page)";

/** The answer closes the connection: a body left unread is not drained, it is dropped. */
function refuse(res: http.ServerResponse, status: number, error: string): true {
  res.writeHead(status, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify({ error }));
  return true;
}

export function signatureMatches(body: Buffer, header: string, secret: string): boolean {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (given === null) return false;
  const expected = crypto.createHmac("sha256", secret).update(body).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(given[1]!, "hex"));
}

/** The path exactly as Probot's middleware reads it (trailing slashes of the whole URL dropped). */
function pathnameOf(url: string | undefined): string | null {
  try {
    return new URL((url ?? "/").replace(/(?<=.)\/+$/, ""), "http://localhost").pathname;
  } catch {
    return null;
  }
}

export function createWebhookGuard(options: WebhookGuardOptions) {
  const maxBytes = options.maxBytes ?? MAX_WEBHOOK_BYTES;
  const tooLarge = (res: http.ServerResponse) => {
    options.log.warn({ max_bytes: maxBytes }, "webhook refused: its body is larger than GitHub ever sends");
    options.onRefused("too_large");
    return refuse(res, 413, `The body is larger than ${maxBytes} bytes`);
  };
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    if (pathnameOf(req.url) !== options.path) return false;
    if (req.method !== "POST") return refuse(res, 404, `Unknown route: ${req.method} ${options.path}`);
    if ((declaredLength(req) ?? 0) > maxBytes) return tooLarge(res);
    if (!JSON_TYPE.test(req.headers["content-type"] ?? ""))
      return refuse(res, 415, 'Unsupported "Content-Type" header value. Must be "application/json"');
    const missing = REQUIRED_HEADERS.filter((name) => typeof req.headers[name] !== "string");
    if (missing.length > 0) {
      if (missing.includes("x-hub-signature-256")) {
        options.log.warn({}, `webhook refused: it carries no signature; ${SECRET_HINT}`);
        options.onRefused("bad_signature");
      }
      return refuse(res, 400, `Required headers missing: ${missing.join(", ")}`);
    }
    const read = await readBoundedBody(req, maxBytes);
    if (read.kind === "too_large") return tooLarge(res);
    if (read.kind === "aborted") return true; // the sender left: nobody to answer
    if (!signatureMatches(read.bytes, req.headers["x-hub-signature-256"] as string, options.secret)) {
      options.log.warn({}, `webhook refused: its signature does not match; ${SECRET_HINT}`);
      options.onRefused("bad_signature");
      return refuse(res, 400, "signature does not match event payload and secret");
    }
    // Probot's middleware takes a body already read from `req.body` instead of the stream.
    (req as http.IncomingMessage & { body?: string }).body = read.bytes.toString("utf8");
    await options.next(req, res);
    return true;
  };
}
