// isomorphic-git's fetch wants one commit per request. A review needs two (the head and the
// merge-base, both at depth 1), and asking for them one at a time costs a second advertisement and
// a second upload-pack, and on the server a second pack, where protocol v1 lets one request name
// both (gitprotocol-pack, "want-list"). The HTTP client adds the extra `want` lines to the request
// isomorphic-git writes; the shallow lines the server answers for them are isomorphic-git's to
// record as usual, and the pack is Loupe's (pack-diverter.ts).

const WANT_LINE = /^[0-9a-f]{4}want [0-9a-f]{40}/;

/**
 * Adds `want <sha>` lines after the first want line of an upload-pack request, for each SHA not
 * wanted there already. A body that does not start with a want line is returned as it is.
 */
export function addWants(body: Uint8Array, shas: readonly string[]): Uint8Array {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const text = buffer.toString("latin1");
  if (!WANT_LINE.test(text)) return body;
  const firstEnd = Number.parseInt(text.slice(0, 4), 16);
  const wanted = new Set(text.match(/want [0-9a-f]{40}/g)?.map((line) => line.slice(5)));
  const lines = shas
    .filter((sha) => !wanted.has(sha))
    .map((sha) => {
      const line = `want ${sha}\n`;
      return `${(line.length + 4).toString(16).padStart(4, "0")}${line}`;
    });
  if (lines.length === 0) return body;
  return Buffer.concat([
    buffer.subarray(0, firstEnd),
    Buffer.from(lines.join(""), "latin1"),
    buffer.subarray(firstEnd),
  ]);
}
