// isomorphic-git's HTTP transport over node:http and node:https. Not Node's fetch: receiving a
// 3.6 MB pack through fetch (undici and its web streams, loaded on first use) peaked about 20 MB
// higher and cost about 0.1 s more CPU than through node:http, measured side by side
// (bench/README.md, issue 43). Response bodies are read as the consumer asks for them, so the
// socket pauses while Loupe writes a pack to disk; isomorphic-git's own node client queues every
// chunk the socket delivers, so a fast server made a whole pack pile up in memory.
// Redirects are followed as fetch follows them (Fetch standard, "HTTP-redirect fetch"): at most
// 20, 303 (and 301/302 after a POST) turning into a GET without a body, and the Authorization
// header dropped for good once a redirect leaves the origin it was sent to; the caller adds it
// only for the configured origin in the first place (git-http-client.ts). A proxy is used as
// Node's own agents use one (HTTPS_PROXY with NODE_USE_ENV_PROXY=1).

import type { IncomingMessage } from "node:http";
import type { GitHttpRequest, GitHttpResponse } from "isomorphic-git";

// node:http and node:https are taken with `process.getBuiltinModule`, not imported: an ES import
// of node:http builds its namespace by reading every export, and three of them (WebSocket,
// CloseEvent, MessageEvent) are getters that load undici, Node's fetch, which a fetch over
// node:http never uses. That load was about 90 ms of CPU, a tenth of a whole fetch's
// (bench/README.md, issue 43); node:https is loaded only for an https URL.
function clientFor(url: URL): Pick<typeof import("node:http"), "request"> {
  return process.getBuiltinModule(url.protocol === "https:" ? "node:https" : "node:http");
}

const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function collect(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export async function requestOverHttp(
  request: GitHttpRequest & { readonly signal: AbortSignal },
): Promise<GitHttpResponse> {
  let method = request.method ?? "GET";
  // Request bodies are a few pkt-lines (wants, haves): sent whole, with a Content-Length.
  let body = request.body === undefined ? undefined : await collect(request.body);
  let headers: Record<string, string> = { ...request.headers };
  let url = new URL(request.url);
  for (let redirects = 0; ; redirects += 1) {
    const response = await send(url, method, headers, body, request.signal);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || location === undefined) {
      return {
        url: url.href,
        method,
        statusCode: response.statusCode ?? 0,
        statusMessage: response.statusMessage ?? "",
        headers: flatHeaders(response),
        body: response[Symbol.asyncIterator]() as AsyncIterableIterator<Uint8Array>,
      };
    }
    response.resume();
    if (redirects >= MAX_REDIRECTS)
      throw new Error(`more than ${MAX_REDIRECTS} redirects from ${request.url}`);
    const next = new URL(location, url);
    if (next.protocol !== "http:" && next.protocol !== "https:") {
      throw new Error(`a redirect to a ${next.protocol} URL is not followed`);
    }
    if (next.origin !== url.origin) headers = withoutHeader(headers, "authorization");
    const status = response.statusCode!;
    if (status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST") {
      method = "GET";
      body = undefined;
      headers = withoutHeader(withoutHeader(headers, "content-type"), "content-length");
    }
    url = next;
  }
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoing = { ...headers };
    if (body !== undefined) outgoing["Content-Length"] = String(body.byteLength);
    const sent = clientFor(url).request(url, { method, headers: outgoing, signal }, resolve);
    sent.on("error", reject);
    sent.end(body);
  });
}

/** Header names in lower case, repeated headers joined with ", " (as fetch's Headers gives them). */
function flatHeaders(response: IncomingMessage): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));
}
