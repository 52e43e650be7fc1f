// A fetch for the openai SDK that refuses provider bodies over the byte limit without ever
// buffering them: Content-Length is checked first, then every chunk is counted as it streams
// and the stream errors (cancelling the connection) the moment the limit is passed.

export class ResponseTooLargeError extends Error {
  constructor() {
    super("provider response exceeded the size limit");
    this.name = "ResponseTooLargeError";
  }
}

export function createBoundedFetch(maxBytes: number, inner: typeof fetch = fetch): typeof fetch {
  const bounded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await inner(input, init);
    const declared = Number(response.headers.get("content-length") ?? "NaN");
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new ResponseTooLargeError();
    }
    if (response.body === null) return response;
    return new Response(response.body.pipeThrough(countingStream(maxBytes)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return bounded as typeof fetch;
}

function countingStream(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) {
        controller.error(new ResponseTooLargeError());
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

/** True when the error, or any error in its cause chain, is the size-limit error. */
export function isResponseTooLarge(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current instanceof ResponseTooLargeError) return true;
    current = current.cause;
  }
  return false;
}
