// What `loupe eval prepare` keeps between runs: each pull request it resolved, written as it
// resolves (atomically, eval-files.ts), to `<manifest>.progress.json` beside the manifest. A run
// stopped by the network or GitHub's anonymous rate limit resumes where it stopped; the finished
// manifest is read as well, so a golden set that grew only asks GitHub about the new pull requests.

import fs from "node:fs/promises";
import { LoupeError } from "../domain/errors.ts";
import { writeJson } from "./eval-files.ts";
import { type ManifestPull, parseManifest } from "./manifest.ts";

export const progressFile = (manifest: string): string => `${manifest}.progress.json`;

/** The resolved pull requests of the manifest and its progress file, by URL. */
export async function readKept(manifest: string): Promise<Map<string, ManifestPull>> {
  const kept = new Map<string, ManifestPull>();
  for (const file of [manifest, progressFile(manifest)]) {
    const text = await fs.readFile(file, "utf8").catch(() => null);
    if (text === null) continue;
    const parsed = parseManifest(text, file);
    // Never overwrite what cannot be read: it may be a person's file, or hours of requests.
    if (typeof parsed === "string")
      throw new LoupeError("usage_invalid", `${parsed} (move it away to start afresh)`);
    for (const pull of parsed.pulls) kept.set(pull.url, pull);
  }
  return kept;
}

export async function writeProgress(manifest: string, pulls: readonly ManifestPull[]): Promise<void> {
  await writeJson(progressFile(manifest), { version: 1, pulls });
}

export async function removeProgress(manifest: string): Promise<void> {
  await fs.rm(progressFile(manifest), { force: true });
}
