// A real chat-completions HTTP server on 127.0.0.1 (ephemeral port) that replays scripted turns
// and records every request body byte for byte. Each turn is a JSON answer (status, headers,
// body) or a fault: a delay, a connection reset, an HTML 502, an empty 500, a body streamed past
// a size, or a hang. A responder answers what the script does not (test/support/realistic-model.ts). Reused by the GitHub App tests: startScriptedProvider(script).

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { isRecord } from "../../src/llm/envelope.ts";

export type ScriptedTurn =
  | { readonly status?: number; readonly headers?: Readonly<Record<string, string>>; readonly body: unknown }
  | {
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
      readonly rawBody: string;
    }
  | { readonly fault: "delay"; readonly ms: number; readonly next: ScriptedTurn }
  | { readonly fault: "reset" }
  | { readonly fault: "html_502" }
  | { readonly fault: "empty_500" }
  | { readonly fault: "stream_bytes"; readonly bytes: number; readonly declareLength?: boolean }
  | { readonly fault: "hang" }
  /**
   * Served only to a request whose body contains `when` (whatever its place in the script), so
   * requests that arrive in no fixed order, such as verifications running side by side, each get
   * their own answer. A request that matches no such turn takes the first turn without `when`.
   */
  | { readonly when: string; readonly turn: ScriptedTurn };

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body exactly as it arrived. */
  readonly bodyText: string;
  /** JSON.parse(bodyText), or undefined if it was not JSON. */
  readonly body: unknown;
  /** Date.now() when its body had arrived, and when its answer was finished (null: not yet, or never). */
  readonly arrivedAt: number;
  answeredAt: number | null;
  /** Requests in flight at the server when this one arrived, itself included. */
  readonly inFlightOnArrival: number;
}

export interface ScriptedProvider {
  /** e.g. http://127.0.0.1:PORT/v1 — use as OPENAI_BASE_URL. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  /** Turns not yet served. */
  remaining(): number;
  /** The most requests the server ever had in flight at once (body arrived, answer not finished). */
  peakInFlight(): number;
  /** Bytes written by stream_bytes turns, and whether each stream was written to its end. */
  readonly streams: { sent: number; completed: boolean }[];
  stop(): Promise<void>;
}

export interface ScriptedProviderOptions {
  /**
   * Answer any request that carries `tools` with a 400 naming them, without using a turn, as
   * llama.cpp does without a tool-call template ("tools param requires --jinja flag").
   */
  readonly rejectTools?: boolean;
  /**
   * Answers a request that no scripted turn matches, from the request itself (a model driven by
   * what it is asked rather than by a fixed queue); undefined leaves it unexpected (418).
   */
  readonly responder?: (request: RecordedRequest) => ScriptedTurn | undefined;
}

export const REJECT_TOOLS_BODY = {
  error: { code: 400, message: "tools param requires --jinja flag", type: "invalid_request_error" },
};

export async function startScriptedProvider(
  script: readonly ScriptedTurn[],
  options: ScriptedProviderOptions = {},
): Promise<ScriptedProvider> {
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const streams: { sent: number; completed: boolean }[] = [];
  let inFlight = 0;
  let peak = 0;
  const server = createServer((request, response) => {
    void handle(request, response);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const bodyText = Buffer.concat(chunks).toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(bodyText);
    } catch {
      body = undefined;
    }
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    const recorded: RecordedRequest = {
      method: request.method ?? "",
      url: request.url ?? "",
      headers: request.headers,
      bodyText,
      body,
      arrivedAt: Date.now(),
      answeredAt: null,
      inFlightOnArrival: inFlight,
    };
    requests.push(recorded);
    response.once("close", () => {
      inFlight -= 1;
      if (response.writableFinished) recorded.answeredAt = Date.now();
    });
    if (options.rejectTools === true && isRecord(body) && "tools" in body) {
      respond(response, 400, {}, JSON.stringify(REJECT_TOOLS_BODY));
      return;
    }
    const turn = takeTurn(queue, bodyText) ?? options.responder?.(recorded);
    if (turn === undefined || request.url !== "/v1/chat/completions") {
      // Visible failure rather than a silent pass: the script did not expect this request.
      respond(
        response,
        418,
        {},
        JSON.stringify({ error: { message: "scripted provider: unexpected request" } }),
      );
      return;
    }
    await serve(turn, response);
  }

  async function serve(turn: ScriptedTurn, response: ServerResponse): Promise<void> {
    if ("when" in turn) return serve(turn.turn, response);
    if (!("fault" in turn)) {
      const text = "rawBody" in turn ? turn.rawBody : JSON.stringify(turn.body);
      respond(response, turn.status ?? 200, turn.headers ?? {}, text);
      return;
    }
    switch (turn.fault) {
      case "delay":
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            resolve();
          }, turn.ms);
          timers.add(timer);
        });
        if (!response.destroyed) await serve(turn.next, response);
        return;
      case "reset":
        response.socket?.resetAndDestroy();
        return;
      case "html_502":
        respond(
          response,
          502,
          { "content-type": "text/html" },
          "<html><body>bad gateway SECRET-UPSTREAM-DETAIL</body></html>",
        );
        return;
      case "empty_500":
        respond(response, 500, {}, "");
        return;
      case "stream_bytes":
        streams.push(await streamBytes(response, turn.bytes, turn.declareLength === true));
        return;
      case "hang":
        return; // never answers; stop() destroys the socket
    }
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    remaining: () => queue.length,
    peakInFlight: () => peak,
    streams,
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The turn for a request: the first whose `when` it contains, else the first without `when`. */
function takeTurn(queue: ScriptedTurn[], bodyText: string): ScriptedTurn | undefined {
  let at = queue.findIndex((turn) => "when" in turn && bodyText.includes(turn.when));
  if (at < 0) at = queue.findIndex((turn) => !("when" in turn));
  return at < 0 ? undefined : queue.splice(at, 1)[0];
}

function respond(
  response: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  text: string,
): void {
  response.writeHead(status, {
    "content-type": "application/json",
    ...headers,
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

/** A JSON-looking body streamed in 64 KiB chunks, so the client must stop it without buffering. */
async function streamBytes(
  response: ServerResponse,
  bytes: number,
  declareLength: boolean,
): Promise<{ sent: number; completed: boolean }> {
  response.writeHead(200, {
    "content-type": "application/json",
    ...(declareLength ? { "content-length": bytes } : {}),
  });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  chunk[0] = 0x7b; // "{" so a client that buffered it all would at least try to parse it
  let sent = 0;
  while (sent < bytes && !response.destroyed) {
    const size = Math.min(chunk.length, bytes - sent);
    const ok = response.write(size === chunk.length ? chunk : chunk.subarray(0, size));
    sent += size;
    if (!ok) await new Promise<void>((resolve) => response.once("drain", resolve).once("close", resolve));
  }
  if (response.destroyed) return { sent, completed: false };
  await new Promise<void>((resolve) => response.end(resolve));
  return { sent, completed: !response.destroyed && sent === bytes };
}
