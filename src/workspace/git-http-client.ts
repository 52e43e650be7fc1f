// An isomorphic-git HttpClient that honours an AbortSignal (isomorphic-git's fetch has no signal
// of its own) and adds the Authorization header only for the configured origin. Requests go over
// node:http (git-http-request.ts), which drops credentials when a redirect changes the origin.
// Response bodies count against one byte budget for the whole session: isomorphic-git holds a
// pack in memory while it indexes it, so a huge repository must stop at the wire, not in the heap.

import type { GitHttpRequest, GitHttpResponse, HttpClient } from "isomorphic-git";
import { addWants } from "./extra-wants.ts";
import { mayCarryToken } from "./git-http-auth.ts";
import { requestOverHttp } from "./git-http-request.ts";
import { divertPack, type PackSink } from "./pack-diverter.ts";
import { advertisesThinPack, requestThinPack } from "./thin-pack.ts";

export interface GitHttpClientOptions {
  /** Origin of the configured repository URL; the only one that sees `authorization`. */
  readonly origin: string;
  readonly authorization?: string;
  readonly signal: AbortSignal;
  /** Called with the URL of each request (for tests and request accounting). */
  readonly onRequest?: (url: string) => void;
  /** Ask for thin packs when the server offers them (see thin-pack.ts). */
  readonly thinPack?: boolean;
  /** Response bytes this client may receive over all its requests; past it, `onTooLarge()`. */
  readonly maxBytes?: number;
  /** The error a read past `maxBytes` throws (the caller knows what was being fetched). */
  readonly onTooLarge?: (maxBytes: number) => Error;
  /** Where the pack of an upload-pack response goes instead of to isomorphic-git (pack-diverter.ts). */
  readonly receivePack?: () => Promise<PackSink>;
  /** Commits each upload-pack request also wants, read when it is sent (extra-wants.ts). */
  readonly extraWants?: () => readonly string[];
}

export function createGitHttpClient(options: GitHttpClientOptions): HttpClient {
  let serverThinPack = false;
  const budget: ByteBudget = {
    left: options.maxBytes ?? Number.POSITIVE_INFINITY,
    exceeded: () =>
      options.onTooLarge?.(options.maxBytes!) ??
      new Error(`the git server sent more than ${options.maxBytes} bytes`),
  };
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
      let body = request.body;
      const extraWants = options.extraWants?.() ?? [];
      const thin = options.thinPack === true && serverThinPack;
      if ((thin || extraWants.length > 0) && body !== undefined && isUploadPack(request.url)) {
        // The want lines are a few hundred bytes; the request goes out whole (git-http-request.ts).
        let whole = addWants(await collect(body), extraWants);
        if (thin) whole = requestThinPack(whole);
        body = [whole] as unknown as AsyncIterableIterator<Uint8Array>;
      }
      const response = await requestOverHttp({ ...request, body, headers, signal: options.signal });
      if (response.body === undefined) return response;
      let responseBody = counted(abortable(response.body, options.signal), budget);
      if (options.receivePack !== undefined && isUploadPack(request.url)) {
        responseBody = divertPack(responseBody, options.receivePack);
      }
      if (options.thinPack === true && isAdvertisement(request.url)) {
        responseBody = watchAdvertisement(responseBody, (offered) => {
          serverThinPack = offered;
        });
      }
      return { ...response, body: responseBody };
    },
  };
}

// A stalled server must not hold an abort up, so each read is raced against the signal. The race
// is set up afresh for every chunk and its listener removed after: racing every read against one
// long-lived "aborted" promise would leave a reaction on it per chunk, and each would keep its
// chunk alive until the response ended (measured: a 384 MiB pack held in memory whole).
async function* abortable(
  body: AsyncIterableIterator<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  try {
    while (true) {
      const next = await nextOrAbort(iterator, signal);
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}

function nextOrAbort<T>(iterator: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T>> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    iterator.next().then(
      (result) => {
        signal.removeEventListener("abort", onAbort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

interface ByteBudget {
  left: number;
  readonly exceeded: () => Error;
}

async function* counted(body: AsyncGenerator<Uint8Array>, budget: ByteBudget): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    budget.left -= chunk.byteLength;
    if (budget.left < 0) throw budget.exceeded();
    yield chunk;
  }
}

const isUploadPack = (url: string): boolean => new URL(url).pathname.endsWith("/git-upload-pack");
const isAdvertisement = (url: string): boolean =>
  new URL(url).pathname.endsWith("/info/refs") &&
  new URL(url).searchParams.get("service") === "git-upload-pack";

async function collect(body: AsyncIterableIterator<Uint8Array> | Iterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

// The capabilities sit on the first ref line, within the first few hundred bytes.
async function* watchAdvertisement(
  body: AsyncGenerator<Uint8Array>,
  report: (offered: boolean) => void,
): AsyncGenerator<Uint8Array> {
  let head = Buffer.alloc(0);
  let decided = false;
  for await (const chunk of body) {
    if (!decided) {
      head = Buffer.concat([head, chunk]);
      const nul = head.indexOf(0);
      if (nul !== -1 && head.indexOf(10, nul) !== -1) {
        report(advertisesThinPack(head));
        decided = true;
      }
    }
    yield chunk;
  }
}
