// Reads the guidance files a review will give the model: each found file, decoded as UTF-8 text,
// path-scoped ones only when their applyTo matches a changed file, each cut to its bound and all
// together to the total bound. Whatever is left out is recorded with its reason, never silently.

import type { RepoConfig } from "../config/repo-config-schema.ts";
import { globMatcher } from "../config/repo-paths.ts";
import { previewText } from "../domain/text.ts";
import { findGuidance } from "./find-guidance.ts";
import { readFrontMatter } from "./front-matter.ts";
import {
  type Candidate,
  GUIDANCE_LIMITS,
  type Guidance,
  type GuidanceFile,
  type GuidanceRead,
  type GuidanceSource,
} from "./types.ts";

export interface LoadGuidanceOptions {
  readonly source: GuidanceSource;
  readonly config: Pick<RepoConfig, "guidance" | "guidance_files">;
  /** The changed files under review, for applyTo. */
  readonly changedFiles: readonly string[];
}

/** Below this many bytes of the total left, a further file is left out rather than cut to nothing. */
const MIN_USEFUL_BYTES = 512;
const encoder = new TextEncoder();

export async function loadGuidance(options: LoadGuidanceOptions): Promise<Guidance> {
  if (!options.config.guidance) return { enabled: false, files: [], skipped: [] };
  const { candidates, skipped } = await findGuidance(
    options.source,
    options.config.guidance_files,
    options.changedFiles,
  );
  const files: GuidanceFile[] = [];
  let used = 0;
  for (const candidate of candidates) {
    const read = await safeRead(options.source, candidate.path);
    const text = readText(candidate, read);
    if (text === null) continue;
    if (typeof text === "string") {
      skipped.push({ path: candidate.path, reason: text });
      continue;
    }
    const scoped = scope(candidate, text.text, options.changedFiles);
    if ("reason" in scoped) {
      skipped.push({ path: candidate.path, reason: scoped.reason });
      continue;
    }
    const left = GUIDANCE_LIMITS.totalBytes - used;
    if (left < MIN_USEFUL_BYTES) {
      skipped.push({
        path: candidate.path,
        reason: `left out: the ${GUIDANCE_LIMITS.totalBytes / 1024} KiB guidance budget is used up`,
      });
      continue;
    }
    const cut = previewText(scoped.body, Math.min(GUIDANCE_LIMITS.fileBytes, left));
    used += encoder.encode(cut.text).byteLength;
    files.push({
      path: candidate.path,
      kind: candidate.kind,
      text: cut.text,
      bytes: text.bytes,
      truncated: cut.truncated,
      appliesTo: scoped.matches?.slice(0, GUIDANCE_LIMITS.listedMatches) ?? null,
      matchedFiles: scoped.matches?.length ?? null,
      directory: candidate.directory ?? null,
    });
  }
  return { enabled: true, files, skipped };
}

async function safeRead(source: GuidanceSource, path: string): Promise<GuidanceRead> {
  try {
    return await source.read(path, GUIDANCE_LIMITS.readBytes);
  } catch {
    return { kind: "unreadable", reason: "could not be read" };
  }
}

/** The file as text, or why not (null: a usual file that is simply absent). */
function readText(candidate: Candidate, read: GuidanceRead): { text: string; bytes: number } | string | null {
  switch (read.kind) {
    case "missing":
      return candidate.kind === "configured" ? "not found" : null;
    case "too_large":
      return `is ${Math.ceil(read.size / 1024)} KiB; files over ${GUIDANCE_LIMITS.readBytes / 1024} KiB are not read`;
    case "unreadable":
      return read.reason;
    case "found": {
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
      } catch {
        return "is not UTF-8 text";
      }
      if (text.includes("\u0000")) return "is not UTF-8 text";
      return text.trim() === "" ? "is empty" : { text, bytes: read.bytes.byteLength };
    }
  }
}

/**
 * Path-scoped files apply only to the changed files their applyTo matches, nested AGENTS.md and
 * CLAUDE.md files to the changed files under their directory.
 */
function scope(
  candidate: Candidate,
  text: string,
  changedFiles: readonly string[],
): { body: string; matches: string[] | null } | { reason: string } {
  if (candidate.directory !== undefined) {
    const prefix = `${candidate.directory}/`;
    return { body: text, matches: changedFiles.filter((file) => file.startsWith(prefix)) };
  }
  if (candidate.kind !== "instructions") return { body: text, matches: null };
  const front = readFrontMatter(text);
  if (!front.ok) return { reason: front.reason };
  if (front.applyTo === null || front.applyTo.length === 0) {
    return { reason: "has no applyTo, so it applies to no file" };
  }
  const match = globMatcher(front.applyTo);
  const matches = changedFiles.filter((file) => match(file));
  if (matches.length === 0) return { reason: "its applyTo matches no changed file" };
  return { body: front.body, matches };
}
