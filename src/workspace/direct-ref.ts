// A ref name looked up the way `git rev-parse` does (gitrevisions(7): NAME, refs/NAME,
// refs/tags/NAME, refs/heads/NAME, refs/remotes/NAME, refs/remotes/NAME/HEAD; a loose ref file
// before the packed-refs line of the same name), answering only for a name that points straight
// at an object. isomorphic-git's resolveRef does the same, but parses every line of packed-refs
// into its own structures first: 0.2–0.4 s of CPU per name on rails/rails's 53,000 refs
// (bench/README.md, "Drift"), against a few milliseconds for one split of the file here.
// Anything else — a symbolic ref, a name this does not handle — is left to the caller's fallback.

import { readFile } from "node:fs/promises";
import path from "node:path";

const OID = /^[0-9a-f]{40}$/;

function candidates(name: string): string[] {
  const expanded = [
    `refs/${name}`,
    `refs/tags/${name}`,
    `refs/heads/${name}`,
    `refs/remotes/${name}`,
    `refs/remotes/${name}/HEAD`,
  ];
  // The bare name only as git's own refs: a file at the top of the gitdir may be anything.
  return name.startsWith("refs/") ? [name, ...expanded] : expanded;
}

/** A plain ref path: no empty, `.` or `..` component, nothing that leaves the gitdir. */
function isPlainName(name: string): boolean {
  return (
    name.split("/").every((part) => part !== "" && part !== "." && part !== "..") && !name.includes("\\")
  );
}

/**
 * The object id `name` points to directly, or undefined when it is not found that way (a
 * symbolic ref, no such ref, a name outside what this handles): the caller then asks its fallback.
 */
export async function resolveDirectRef(gitdir: string, name: string): Promise<string | undefined> {
  if (!isPlainName(name)) return undefined;
  let packed: string | undefined;
  for (const candidate of candidates(name)) {
    const loose = await readFile(path.join(gitdir, candidate), "latin1").catch(() => undefined);
    if (loose !== undefined) {
      const value = loose.trim();
      return OID.test(value) ? value : undefined;
    }
    packed ??= await readFile(path.join(gitdir, "packed-refs"), "latin1").catch(() => "");
    const oid = packedRef(packed, candidate);
    if (oid !== undefined) return oid;
  }
  return undefined;
}

/**
 * The id of `name` in packed-refs text (lines `<id> <name>`; a `^<id>` line peels the tag above
 * it and is no ref of its own): one search of the text for the name, not a parse of every line.
 */
function packedRef(text: string, name: string): string | undefined {
  const needle = ` ${name}`;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    const lineEnds = end === text.length || text[end] === "\n" || text[end] === "\r";
    const lineStart = at - 40;
    if (!lineEnds || lineStart < 0 || (lineStart > 0 && text[lineStart - 1] !== "\n")) continue;
    const oid = text.slice(lineStart, at);
    if (OID.test(oid)) return oid;
  }
  return undefined;
}
