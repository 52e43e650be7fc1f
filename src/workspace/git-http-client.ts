// An isomorphic-git HttpClient that honours an AbortSignal (isomorphic-git's fetch has no signal
// of its own) and adds the Authorization header only for the configured origin. Redirects are
// followed by isomorphic-git's node client, which drops credentials when the origin changes.

import type { GitHttpRequest, GitHttpResponse, HttpClient } from "isomorphic-git";
import nodeHttp from "isomorphic-git/http/node";
import { mayCarryToken } from "./git-http-auth.ts";

export interface GitHttpClientOptions {
  /** Origin of the configured repository URL; the only one that sees `authorization`. */
  readonly origin: string;
  readonly authorization?: string;
  readonly signal: AbortSignal;
  /** Called with the URL of each request (for tests and request accounting). */
  readonly onRequest?: (url: string) => void;
}

export function createGitHttpClient(options: GitHttpClientOptions): HttpClient {
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      options.signal.throwIfAborted();
      options.onRequest?.(request.url);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers ?? {})) {
        // Whatever isomorphic-git or a caller put there, credentials come from us alone.
        if (name.toLowerCase() !== "authorization") headers[name] = value;
      }
      if (options.authorization !== undefined && mayCarryToken(request.url, options.origin)) {
        headers.Authorization = options.authorization;
      }
      headers["User-Agent"] ??= "loupe (isomorphic-git)";
      const response = await nodeHttp.request({ ...request, headers, signal: options.signal });
      return {
        ...response,
        body: response.body === undefined ? undefined : abortable(response.body, options.signal),
      };
    },
  };
}

// The node client's stream iterator does not always reject when its socket is destroyed, so a
// body read is raced against the signal too: an abort never waits for a stalled server.
async function* abortable(
  body: AsyncIterableIterator<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<Uint8Array> {
  const aborted = new Promise<never>((_, reject) => {
    const fail = (): void => reject(signal.reason);
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => {});
  const iterator = body[Symbol.asyncIterator]();
  try {
    while (true) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}
