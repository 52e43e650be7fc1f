// isomorphic-git never asks for a thin pack (it cannot "fatten" one for native git), so when
// it fetches the merge-base with the head as a `have`, stock git upload-pack still sends every
// object of the merge-base tree again: a second full pack (measured: 3.6 MB instead of 1.2 KB on
// a 5,300-file repository). Loupe never hands its store to native git, and isomorphic-git reads
// thin packs (external ref-deltas resolve against objects already in the store), so the request
// asks for one — but only from a server that advertised the capability, and only when the
// request carries haves (without them a thin pack is identical to a full one).

const CAPABILITY = "thin-pack";

/** Scans an info/refs advertisement (protocol v1) for the thin-pack capability. */
export function advertisesThinPack(advertisement: Uint8Array): boolean {
  const text = Buffer.from(advertisement).toString("latin1");
  const nul = text.indexOf("\0");
  if (nul === -1) return false;
  const end = text.indexOf("\n", nul);
  return text
    .slice(nul + 1, end === -1 ? undefined : end)
    .split(" ")
    .includes(CAPABILITY);
}

/** Adds `thin-pack` to the capabilities of the first want line of an upload-pack request. */
export function requestThinPack(body: Uint8Array): Uint8Array {
  const buffer = Buffer.from(body);
  const text = buffer.toString("latin1");
  if (!/^[0-9a-f]{4}want [0-9a-f]{40}/.test(text) || !/[0-9a-f]{4}have [0-9a-f]{40}\n/.test(text))
    return body;
  const length = Number.parseInt(text.slice(0, 4), 16);
  const line = text.slice(4, length);
  if (!line.startsWith("want ") || !line.endsWith("\n") || line.trimEnd().split(" ").includes(CAPABILITY))
    return body;
  const patched = `${line.slice(0, -1)} ${CAPABILITY}\n`;
  const header = (patched.length + 4).toString(16).padStart(4, "0");
  return Buffer.concat([Buffer.from(header + patched, "latin1"), buffer.subarray(length)]);
}
