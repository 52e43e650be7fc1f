// Text decoding shared by the tools: git's binary heuristic, strict UTF-8 and line splitting.

/** git's `buffer_is_binary`: a NUL byte within the first 8,000 bytes. */
export const BINARY_SNIFF_BYTES = 8000;

export function looksBinary(bytes: Uint8Array): boolean {
  // The engine's own indexOf (a native scan), not a loop of byte reads: a search sniffs every
  // file it reads, and in a fresh process such a loop runs interpreted (bench/README.md, "Drift").
  const sniffed = bytes.length > BINARY_SNIFF_BYTES ? bytes.subarray(0, BINARY_SNIFF_BYTES) : bytes;
  return sniffed.indexOf(0) !== -1;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The text of a UTF-8 file, or undefined when it is not valid UTF-8. A leading BOM is dropped. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Lines as git and GitHub number them: `\n` ends a line, a final line without `\n` still counts,
 * an empty file has none. A `\r` before the `\n` (CRLF) is removed from the line text; a lone
 * `\r` elsewhere stays.
 */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/** How many lines splitLines would return, without making them. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let count = 0;
  for (let lf = text.indexOf("\n"); lf >= 0; lf = text.indexOf("\n", lf + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}

/** `text.slice(start, end)`, narrowed so that it never splits a surrogate pair. */
export function sliceSafely(text: string, start: number, end: number): string {
  let from = Math.max(0, start);
  let to = Math.min(text.length, end);
  if (from > 0 && isLowSurrogate(text.charCodeAt(from))) from += 1;
  if (to < text.length && isLowSurrogate(text.charCodeAt(to))) to -= 1;
  return from >= to ? "" : text.slice(from, to);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
