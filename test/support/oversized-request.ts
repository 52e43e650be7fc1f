// Sends a large body to a server the way an attacker would, and stops as soon as the server
// answers or hangs up: with a Content-Length it never means to honour, or chunked (no length at
// all). Reports the answer and how many bytes were sent before it, which says how much of the body
// the server read before refusing it — without timing anything.

import http from "node:http";

export interface OversizedRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body's size: declared as Content-Length, or streamed chunked when `chunked`. */
  readonly bodyBytes: number;
  readonly chunked: boolean;
  /** One chunk, repeated (its content is what the log must never show). */
  readonly chunk: Buffer;
}

export interface OversizedResult {
  /** The status the server answered, or null when it hung up without one. */
  readonly status: number | null;
  readonly body: string;
  readonly sentBytes: number;
}

export function sendOversized(request: OversizedRequest): Promise<OversizedResult> {
  const target = new URL(request.url);
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const headers: Record<string, string> = { ...request.headers };
    if (!request.chunked) headers["content-length"] = String(request.bodyBytes);
    const req = http.request({
      host: target.hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      method: "POST",
      headers,
    });
    const done = (status: number | null, body: string) => {
      if (answered) return;
      answered = true;
      resolve({ status, body, sentBytes: sent });
      req.destroy();
    };
    req.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => done(response.statusCode ?? null, Buffer.concat(chunks).toString("utf8")));
      response.on("error", () => done(response.statusCode ?? null, ""));
    });
    req.on("error", () => done(null, ""));
    req.on("close", () => done(null, ""));
    const pump = () => {
      while (!answered && sent < request.bodyBytes) {
        const piece = request.chunk.subarray(0, Math.min(request.chunk.length, request.bodyBytes - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}
