// isomorphic-git's HTTP transport over Node's fetch. Response bodies are read as the consumer
// asks for them, so the socket pauses while Loupe writes a pack to disk; isomorphic-git's own
// node client queues every chunk the socket delivers, so a fast server made a whole pack pile up
// in memory. Redirects are followed by fetch, which drops the Authorization header when a
// redirect leaves the origin (Fetch standard, "HTTP-redirect fetch"); the caller adds that header
// only for the configured origin in the first place (git-http-client.ts).

import type { GitHttpRequest, GitHttpResponse } from "isomorphic-git";

async function collect(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export async function requestOverFetch(
  request: GitHttpRequest & { readonly signal: AbortSignal },
): Promise<GitHttpResponse> {
  const method = request.method ?? "GET";
  // Request bodies are a few pkt-lines (wants, haves): sent whole, with a Content-Length.
  const body = request.body === undefined ? undefined : await collect(request.body);
  const response = await fetch(request.url, {
    method,
    headers: request.headers ?? {},
    ...(body === undefined ? {} : { body }),
    redirect: "follow",
    signal: request.signal,
  });
  return {
    url: response.url,
    method,
    statusCode: response.status,
    statusMessage: response.statusText,
    headers: Object.fromEntries(response.headers),
    body: (response.body ?? emptyBody()) as unknown as AsyncIterableIterator<Uint8Array>,
  };
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}
