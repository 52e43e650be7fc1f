// Reads a request body up to a byte limit and no further. The count is of the bytes as they
// arrive, so a chunked body without Content-Length is cut off as soon as it passes the limit:
// memory never holds more than the limit, whatever the sender claims or sends.

import type http from "node:http";

export type BodyRead =
  | { readonly kind: "body"; readonly bytes: Buffer }
  | { readonly kind: "too_large" }
  | { readonly kind: "aborted" };

/** The Content-Length header as a number; null when absent, malformed or not a safe integer. */
export function declaredLength(req: http.IncomingMessage): number | null {
  const raw = req.headers["content-length"];
  if (raw === undefined || !/^\d{1,16}$/.test(raw)) return null;
  const length = Number(raw);
  return Number.isSafeInteger(length) ? length : null;
}

export function readBoundedBody(req: http.IncomingMessage, maxBytes: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onAbort);
      req.off("close", onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        req.pause(); // nothing more is read; the answer closes the connection
        settle({ kind: "too_large" });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle({ kind: "body", bytes: Buffer.concat(chunks, size) });
    const onAbort = () => settle({ kind: "aborted" });
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onAbort);
    req.once("close", onAbort);
  });
}
