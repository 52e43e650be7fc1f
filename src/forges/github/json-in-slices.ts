// GitHub's large answers parsed as they arrive, a piece at a time, with a turn of the event loop
// between pieces. Octokit reads a whole body, decodes it and parses it in one go: a comparison
// lists up to 300 files, each name four times (the name and three URLs) beside its patch, so a
// pull request of kilobyte-long names is a 5 MB answer, and parsing it in one go held the loop
// for about 60 ms. json-ext's parseChunked parses each piece as it comes (JSON.parse does the
// work, on the complete values in it), so no turn holds more than one 64 KiB piece.

import { setImmediate as nextTurn } from "node:timers/promises";
import { parseChunked } from "@discoveryjs/json-ext";
import { LoupeError } from "../../domain/errors.ts";

/** Octokit's request option for a success body left unread, as a stream (`parseJsonInSlices`). */
export const UNPARSED_BODY = { parseSuccessResponseBody: false } as const;

const PIECE_BYTES = 64 * 1024;

export interface JsonSliceOptions {
  /** Waits one turn of the event loop (default: setImmediate). */
  readonly yieldTurn?: () => Promise<unknown>;
}

/**
 * Parses a JSON body (an Octokit `data` read with `UNPARSED_BODY`: the response's byte stream)
 * like JSON.parse, yielding a turn after every 64 KiB; a body that is missing or not JSON is a
 * `github_request_failed` error whose message names it by `what`.
 */
export async function parseJsonInSlices(
  body: unknown,
  what: string,
  options: JsonSliceOptions = {},
): Promise<unknown> {
  if (!isByteStream(body)) throw new LoupeError("github_request_failed", `${what} had no body`);
  const yieldTurn = options.yieldTurn ?? (() => nextTurn());
  let values = 0;
  let value: unknown;
  try {
    await parseChunked(
      async function* () {
        for await (const chunk of body) {
          for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
            yield chunk.subarray(at, at + PIECE_BYTES);
            await yieldTurn();
          }
        }
      },
      {
        onRootValue: (root) => {
          values++;
          value = root;
        },
      },
    );
    // parseChunked (1.1.0) returns what it has for a body cut right after a bracket or a comma,
    // as if the brackets still open had been closed: only a value it saw close is a whole answer.
    if (values !== 1) throw new SyntaxError("Unexpected end of JSON input");
    return value;
  } catch (error) {
    // A connection lost mid-body is not a syntax error: it goes up as it came.
    if (!(error instanceof SyntaxError)) throw error;
    throw new LoupeError("github_request_failed", `${what} is not valid JSON: ${error.message}`, {
      cause: error,
    });
  }
}

function isByteStream(body: unknown): body is AsyncIterable<Uint8Array> {
  return (
    typeof body === "object" &&
    body !== null &&
    typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === "function"
  );
}
