// The repository configuration `loupe review` applies, read the way the App reads it: the App
// takes `.github/loupe.yml` from the default branch, so a pull request cannot change how it is
// reviewed; the CLI takes it from the --base revision (the branch the change goes into), never
// from the head. `--config FILE` tries a file before it is committed. The pipeline parses it with
// the App's own parser.

import fs from "node:fs/promises";
import path from "node:path";
import { MAX_CONFIG_BYTES, REPO_CONFIG_PATH } from "../../config/repo-config.ts";
import { LoupeError } from "../../domain/errors.ts";
import type { ConfigFileRead, HostConfigFile } from "../../host/pull-request-host.ts";
import { locateGitdir } from "../../workspace/open-local.ts";
import { resolveRevision } from "../../workspace/resolve-revision.ts";
import { createObjectReader, createObjectStore, readCommitSnapshot } from "../../workspace/snapshot.ts";
import type { CommitSnapshot, ObjectReader } from "../../workspace/types.ts";

export interface ReadSettingsOptions {
  readonly repo: string;
  readonly base: string;
  readonly isUrl: boolean;
  /** --config: a file on this machine that replaces the committed one. */
  readonly configFile: string | undefined;
  /** A fetched repository holds no base-branch commit beyond the merge-base: read it there. */
  readonly mergeBase: { readonly snapshot: CommitSnapshot; readonly objects: ObjectReader };
}

export async function readReviewConfigFile(options: ReadSettingsOptions): Promise<HostConfigFile> {
  if (options.configFile !== undefined) {
    return { file: await readConfigFile(options.configFile), source: `the file ${options.configFile}` };
  }
  const where = options.isUrl
    ? `the merge-base ${options.mergeBase.snapshot.commit.slice(0, 12)}`
    : `--base ${JSON.stringify(options.base)}`;
  const file = options.isUrl
    ? await readFromSnapshot(options.mergeBase.snapshot, options.mergeBase.objects)
    : await readAtLocalRevision(options.repo, options.base);
  const source =
    file.kind === "missing"
      ? `the defaults (no ${REPO_CONFIG_PATH} at ${where})`
      : `${REPO_CONFIG_PATH} at ${where}`;
  return { file, source };
}

async function readConfigFile(file: string): Promise<ConfigFileRead> {
  const stat = await fs.stat(file).catch(() => undefined);
  if (stat === undefined || !stat.isFile()) {
    throw new LoupeError("usage_invalid", `--config ${JSON.stringify(file)} is not a readable file`);
  }
  if (stat.size > MAX_CONFIG_BYTES) {
    return { kind: "unreadable", message: `The file is larger than ${MAX_CONFIG_BYTES / 1024} KiB.` };
  }
  return { kind: "found", text: await fs.readFile(file, "utf8") };
}

async function readFromSnapshot(snapshot: CommitSnapshot, objects: ObjectReader): Promise<ConfigFileRead> {
  const entry = snapshot.byPath.get(REPO_CONFIG_PATH);
  if (entry === undefined) return { kind: "missing" };
  // What GitHub's contents API answers for the App: a symlink or submodule is not a file.
  if (entry.mode !== "file" && entry.mode !== "executable") {
    return { kind: "unreadable", message: `${REPO_CONFIG_PATH} is not a regular file.` };
  }
  const bytes = await objects.readBlobWithin(entry.oid, MAX_CONFIG_BYTES);
  if (bytes === "too_large") {
    return {
      kind: "unreadable",
      message: `${REPO_CONFIG_PATH} is larger than ${MAX_CONFIG_BYTES / 1024} KiB.`,
    };
  }
  return { kind: "found", text: Buffer.from(bytes).toString("utf8") };
}

async function readAtLocalRevision(dir: string, revision: string): Promise<ConfigFileRead> {
  const location = await locateGitdir(path.resolve(dir));
  const store = { ...createObjectStore(location.gitdir), headOverride: location.headOverride };
  try {
    const snapshot = await readCommitSnapshot(store, await resolveRevision(store, revision));
    return await readFromSnapshot(snapshot, createObjectReader(store));
  } finally {
    store.database.close();
  }
}
