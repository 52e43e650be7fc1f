// The golden set `loupe eval prepare` reads: every `*.json` of a directory, and its content hash.
// Scores are comparable only on the same golden set (the benchmark versions it), so the hash goes
// into the manifest, then into every judged file, then beside every score of the report.

import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { LoupeError } from "../domain/errors.ts";
import { type GoldenPull, parseGoldenFile } from "./golden-file.ts";

export interface GoldenSet {
  readonly pulls: readonly GoldenPull[];
  /** The first 12 hex digits of `goldenSetHash` of the files read. */
  readonly hash: string;
}

/**
 * sha256 over the lines `sha256sum` prints for the files, sorted by name, so a person can check it:
 * `cd golden_comments && LC_ALL=C sha256sum *.json | sha256sum | cut -c1-12`.
 */
export function goldenSetHash(files: readonly { readonly name: string; readonly text: string }[]): string {
  const lines = files
    .toSorted((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((file) => `${createHash("sha256").update(file.text).digest("hex")}  ${file.name}\n`);
  return createHash("sha256").update(lines.join("")).digest("hex").slice(0, 12);
}

/** Every `*.json` of the directory, by name; a pull request listed twice is kept once. */
export async function readGoldenSet(dir: string): Promise<GoldenSet> {
  const names = await fs.readdir(dir).catch(() => {
    throw new LoupeError("usage_invalid", `cannot read the golden directory ${dir}`);
  });
  const files: { name: string; text: string }[] = [];
  const pulls = new Map<string, GoldenPull>();
  for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
    const text = await fs.readFile(path.join(dir, name), "utf8");
    files.push({ name, text });
    const parsed = parseGoldenFile(text);
    if (parsed.kind === "invalid") throw new LoupeError("usage_invalid", `${name} ${parsed.problem}`);
    // A pull request without golden comments has no recall to measure: the benchmark skips it too.
    for (const pull of parsed.pulls)
      if (pull.comments.length > 0 && !pulls.has(pull.url)) pulls.set(pull.url, pull);
  }
  if (pulls.size === 0) throw new LoupeError("usage_invalid", `no golden comments in ${dir}`);
  return { pulls: [...pulls.values()], hash: goldenSetHash(files) };
}
