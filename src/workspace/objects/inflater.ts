// Inflates zlib streams (pack entries, loose objects) through one native zlib handle that is reset
// and reused, instead of `zlib.inflateSync`, which builds a whole stream object (a Transform, its
// two states, a native handle, an output buffer) for every call and closes it again. Measured on
// the 6,747 entries of the benchmark pack (bench/README.md, "The loupe command"): the same inflates
// take 244 ms through `inflateSync` in a fresh process (its JavaScript is not yet optimised) and
// 76 ms once warm, against 62 ms cold and 46–60 ms warm through one reused handle. A command-line
// tool run is always a fresh process.
//
// Node offers no public way to reuse a handle, so this uses the handle behind `zlib.Inflate` (its
// `_handle.writeSync` and `_writeState`, unchanged since Node 10 and used by `inflateSync` itself).
// If they are ever missing, every call goes through `inflateSync`, which gives the same outcomes.

import { kMaxLength } from "node:buffer";
import { types } from "node:util";
import zlib from "node:zlib";

export type Inflation =
  /** The stream ended: its bytes, and how much of the input it used. */
  | { readonly kind: "ended"; readonly data: Buffer; readonly consumed: number }
  /** More than `limit` bytes came out; inflating stopped there. */
  | { readonly kind: "over_limit" }
  /** The input ended before the stream did. */
  | { readonly kind: "truncated" }
  /** Not a zlib stream, or a damaged one. */
  | { readonly kind: "invalid"; readonly message: string };

interface NativeHandle {
  writeSync(
    flush: number,
    input: Uint8Array,
    inputOffset: number,
    inputLength: number,
    output: Uint8Array,
    outputOffset: number,
    outputLength: number,
  ): void;
  reset(): void;
}

interface Engine {
  readonly stream: zlib.Inflate;
  readonly handle: NativeHandle;
  /** [output bytes left, input bytes left] after each write. */
  readonly state: Uint32Array;
}

/** Output is produced in pieces of at most this size, so a lying header never allocates its lie. */
const MAX_PIECE = 4 * 1024 * 1024;
const MIN_PIECE = 16 * 1024;

// undefined: not opened yet (or closed by an error); null: the internals are missing.
let engine: Engine | null | undefined;
let useInternals = true;

/**
 * Tests turn the reused handle off to check that `inflateSync` gives the same outcomes. Answers
 * whether the reused handle is in use (false when this Node lacks the internals it needs).
 */
export function useReusedHandle(on: boolean): boolean {
  useInternals = on;
  engine = on ? openEngine() : null;
  return engine !== null;
}

function openEngine(): Engine | null {
  const stream = zlib.createInflate({ chunkSize: 64 });
  const internals = stream as unknown as { _handle?: Partial<NativeHandle>; _writeState?: unknown };
  const handle = internals._handle;
  const state = internals._writeState;
  if (
    typeof handle?.writeSync !== "function" ||
    typeof handle.reset !== "function" ||
    // Not `instanceof`: the array comes from Node's own realm, which a vm context (jest) does not share.
    !types.isUint32Array(state) ||
    state.length < 2
  ) {
    stream.destroy();
    return null;
  }
  // A damaged stream destroys the Inflate (read back synchronously through `errored`); the event
  // it emits later must not be an unhandled 'error'.
  stream.on("error", () => {});
  return { stream, handle: handle as NativeHandle, state: state as Uint32Array };
}

/**
 * Inflates the zlib stream at the start of `input`, allowing at most `limit` bytes out.
 * `expected` (the declared size, when known; else a guess) sizes the first output buffer.
 */
export function inflateStream(input: Uint8Array, limit: number, expected?: number): Inflation {
  if (engine === undefined) engine = useInternals ? openEngine() : null;
  if (engine === null) return inflateWithStream(input, limit);
  const { stream, handle, state } = engine;
  const pieces: Buffer[] = [];
  let produced = 0;
  let inputOffset = 0;
  let inputLeft = input.byteLength;
  // One byte past the limit: a stream that fills it has more than `limit` to give.
  let piece = Math.max(1, Math.min(limit + 1, (expected ?? MIN_PIECE) + 1, MAX_PIECE));
  for (;;) {
    const output = Buffer.allocUnsafe(piece);
    handle.writeSync(zlib.constants.Z_FINISH, input, inputOffset, inputLeft, output, 0, piece);
    if (stream.destroyed) {
      engine = undefined;
      const error = stream.errored as { code?: unknown; message?: string } | null;
      return error?.code === "Z_BUF_ERROR"
        ? { kind: "truncated" }
        : { kind: "invalid", message: error?.message ?? "zlib error" };
    }
    const outputLeft = state[0]!;
    inputOffset += inputLeft - state[1]!;
    inputLeft = state[1]!;
    produced += piece - outputLeft;
    pieces.push(outputLeft === 0 ? output : output.subarray(0, piece - outputLeft));
    if (produced > limit) {
      handle.reset();
      return { kind: "over_limit" };
    }
    // With Z_FINISH, room left in the output means the stream ended: node:zlib reports a stream
    // that stopped short of its end, with room to spare, as "unexpected end of file" (above).
    if (outputLeft > 0) {
      handle.reset();
      const data = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, produced);
      return { kind: "ended", data, consumed: inputOffset };
    }
    // Past the expected size (none, or a wrong one): grow by doubling what came out so far.
    piece = Math.min(limit - produced + 1, MAX_PIECE, Math.max(produced, MIN_PIECE));
  }
}

/** The same outcomes through `zlib.inflateSync` (a new stream per call). */
function inflateWithStream(input: Uint8Array, limit: number): Inflation {
  try {
    const result = zlib.inflateSync(input, {
      info: true,
      chunkSize: Math.max(64, Math.min(limit + 1, MAX_PIECE)),
      maxOutputLength: Math.max(1, Math.min(limit + 1, kMaxLength)),
    }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    if (result.buffer.byteLength > limit) return { kind: "over_limit" };
    return { kind: "ended", data: result.buffer, consumed: result.engine.bytesWritten };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message: string };
    if (code === "ERR_BUFFER_TOO_LARGE") return { kind: "over_limit" };
    if (code === "Z_BUF_ERROR") return { kind: "truncated" };
    return { kind: "invalid", message };
  }
}

/** What a piece inflater says after each piece. */
export type PieceInflation =
  /** The stream has not ended: feed it the next piece. */
  | { readonly kind: "more" }
  /** The stream ended: its bytes, and how much of all the pieces fed it used. */
  | { readonly kind: "ended"; readonly data: Buffer; readonly consumed: number }
  /** Damaged, or it inflates to more or fewer bytes than declared. */
  | { readonly kind: "invalid"; readonly message: string };

/**
 * Inflates zlib streams whose bytes arrive a piece at a time (a pack entry cut by the network),
 * keeping zlib's state between pieces so nothing is inflated twice. Each stream has a declared
 * size, which is also its cap. A handle of its own: the shared one above serves other reads
 * between two pieces.
 */
export interface PieceInflater {
  /** Starts a new stream that must inflate to exactly `size` bytes. */
  begin(size: number): void;
  feed(piece: Uint8Array): PieceInflation;
  close(): void;
}

/** A piece inflater, or null when this Node lacks the internals it needs. */
export function openPieceInflater(): PieceInflater | null {
  let own = useInternals ? openEngine() : null;
  if (own === null) return null;
  let output = Buffer.alloc(0);
  let produced = 0;
  let consumed = 0;
  return {
    begin(size) {
      // One byte past the declared size: a stream that fills it inflates to more than declared.
      output = Buffer.allocUnsafe(size + 1);
      produced = 0;
      consumed = 0;
      own?.handle.reset();
    },
    feed(piece) {
      own ??= openEngine();
      if (own === null) return { kind: "invalid", message: "zlib is unavailable" };
      const { stream, handle, state } = own;
      const room = output.byteLength - produced;
      handle.writeSync(zlib.constants.Z_SYNC_FLUSH, piece, 0, piece.byteLength, output, produced, room);
      if (stream.destroyed) {
        own = null; // a damaged stream destroys the handle; the next stream gets a new one
        const error = stream.errored as { message?: string } | null;
        return { kind: "invalid", message: error?.message ?? "zlib error" };
      }
      const outputLeft = state[0]!;
      const inputLeft = state[1]!;
      produced += room - outputLeft;
      consumed += piece.byteLength - inputLeft;
      const size = output.byteLength - 1;
      if (outputLeft === 0)
        return { kind: "invalid", message: `it inflates to more than the declared ${size} bytes` };
      // zlib stops at the stream's end and leaves the rest of the piece: input left over, with room
      // to spare, means the stream ended. (Ending exactly at a piece's end is seen with the next.)
      if (inputLeft === 0) return { kind: "more" };
      handle.reset();
      if (produced !== size)
        return { kind: "invalid", message: `it inflates to ${produced} bytes, not the declared ${size}` };
      return { kind: "ended", data: output.subarray(0, size), consumed };
    },
    close() {
      own?.stream.destroy();
      own = null;
    },
  };
}
