// Fetches the two immutable commits of a review (the PR head and the merge-base) at depth 1
// into a fresh, bare, temporary object store with isomorphic-git, and exposes them as a
// Workspace. Nothing is checked out: the tools read blobs by id. The temporary directory is
// removed on every failure and by `dispose()`.

import fs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import git from "isomorphic-git";
import { LoupeError } from "../domain/errors.ts";
import { classifyFetchError, isUnreachableFailure, unreachable } from "./fetch-errors.ts";
import { deepenToMergeBase, fetchAndInstall, fetchCommit, hasCommit, type Session } from "./fetch-session.ts";
import { FETCH_TIMEOUT_MS } from "./fetch-timeout.ts";
import { authorizationHeader, parseRemoteUrl } from "./git-http-auth.ts";
import { createGitHttpClient } from "./git-http-client.ts";
import { createIncomingPacks } from "./incoming-packs.ts";
import { createObjectReader, createObjectStore, readCommitSnapshot } from "./snapshot.ts";
import type { Workspace } from "./types.ts";

export interface FetchWorkspaceOptions {
  /** http(s)://host/owner/repo(.git) — the base repository. Never with credentials in it. */
  readonly url: string;
  /** 40-hex, immutable. */
  readonly headSha: string;
  /** The merge-base when known (the App gets it from GitHub's compare API). */
  readonly mergeBaseSha?: string;
  /** Alternatively a base commit: the merge-base is then found by bounded deepening. */
  readonly baseSha?: string;
  /** Enables the refs/pull/<n>/head fallback when the head SHA cannot be fetched. */
  readonly pullNumber?: number;
  /**
   * The host's ref that holds the pull request's head, fetched when the head SHA cannot be (a
   * fork's head on GitLab: refs/merge-requests/<iid>/head). Default: GitHub's refs/pull/<n>/head.
   */
  readonly headRef?: string;
  /** Installation token: sent only as an Authorization header, only to the URL's origin. */
  readonly token?: string;
  readonly signal?: AbortSignal;
  /** Bound for the whole fetch (default 180 s). */
  readonly timeoutMs?: number;
  /** Bytes the git server may send over the whole fetch (default 1 GiB); past it, git_repository_too_large. */
  readonly maxBytes?: number;
  /** Parent of the temporary directory (default `os.tmpdir()`). */
  readonly tmpRoot?: string;
  /** baseSha mode: how many commits deep each side may be fetched (default 1024). */
  readonly maxDeepen?: number;
  /** Called with the URL of every HTTP request (request accounting, tests). */
  readonly onRequest?: (url: string) => void;
}

/** The head SHA is gone, and the host's head ref now names another commit: the PR moved on. */
export class PullRequestMovedError extends LoupeError {
  constructor(
    pullNumber: number,
    headSha: string,
    currentHeadSha: string,
    ref = `refs/pull/${pullNumber}/head`,
  ) {
    super(
      "git_commit_unreachable",
      `pull request #${pullNumber} has moved on: ${ref} is ${currentHeadSha}, not ${headSha}`,
    );
  }
}

const SHA = /^[0-9a-f]{40}$/;
export const DEFAULT_MAX_FETCH_BYTES = 1024 * 1024 * 1024;

export async function fetchWorkspace(options: FetchWorkspaceOptions): Promise<Workspace> {
  const url = parseRemoteUrl(options.url);
  checkOptions(options);
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  const failure = { what: "the repository", callerSignal: options.signal, signal, timeoutMs };
  if (signal.aborted) throw classifyFetchError(signal.reason, failure);

  const gitdir = await mkdtemp(path.join(options.tmpRoot ?? os.tmpdir(), "loupe-workspace-"));
  const store = createObjectStore(gitdir);
  const packs = createIncomingPacks({ gitdir, database: store.database });
  const extraWants: string[] = [];
  const session: Session = {
    ...store,
    packs,
    extraWants,
    http: createGitHttpClient({
      origin: url.origin,
      authorization: options.token === undefined ? undefined : authorizationHeader(options.token),
      signal,
      onRequest: options.onRequest,
      thinPack: true,
      maxBytes: options.maxBytes ?? DEFAULT_MAX_FETCH_BYTES,
      onTooLarge: (maxBytes) =>
        new LoupeError(
          "git_repository_too_large",
          `the git server sent more than ${maxBytes} bytes for the review's two commits; the fetch was stopped there`,
        ),
      receivePack: packs.receive,
      extraWants: () => extraWants,
    }),
  };
  let what = `the head commit ${options.headSha}`;
  try {
    await git.init({ fs, gitdir, bare: true, defaultBranch: "main" });
    await git.addRemote({ fs, gitdir, remote: "origin", url: url.href });
    await fetchHead(session, options);
    let mergeBase = options.mergeBaseSha;
    if (mergeBase !== undefined) {
      what = `the merge-base commit ${mergeBase}`;
      await fetchCommit(session, mergeBase, what);
    } else {
      what = `the base commit ${options.baseSha}`;
      mergeBase = await deepenToMergeBase(session, options.headSha, options.baseSha!, options.maxDeepen);
    }
    what = "the commit trees";
    const head = await readCommitSnapshot(store, options.headSha, { signal });
    const mergeBaseSnapshot = await readCommitSnapshot(store, mergeBase, { signal, reuse: head });
    signal.throwIfAborted();
    return {
      head,
      mergeBase: mergeBaseSnapshot,
      objects: createObjectReader(store),
      dispose: async () => {
        store.database.close();
        await rm(gitdir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    store.database.close();
    await rm(gitdir, { recursive: true, force: true });
    throw classifyFetchError(error, { ...failure, what });
  }
}

function checkOptions(options: FetchWorkspaceOptions): void {
  const bad = (message: string): LoupeError => new LoupeError("usage_invalid", message);
  if (!SHA.test(options.headSha)) throw bad("the head SHA must be 40 lowercase hex digits");
  if (options.mergeBaseSha === undefined && options.baseSha === undefined) {
    throw bad("fetching a workspace needs a merge-base SHA or a base SHA");
  }
  for (const sha of [options.mergeBaseSha, options.baseSha]) {
    if (sha !== undefined && !SHA.test(sha))
      throw bad("base and merge-base SHAs must be 40 lowercase hex digits");
  }
  if (
    options.pullNumber !== undefined &&
    !(Number.isSafeInteger(options.pullNumber) && options.pullNumber > 0)
  ) {
    throw bad("the pull request number must be a positive integer");
  }
  if (options.maxBytes !== undefined && !(Number.isSafeInteger(options.maxBytes) && options.maxBytes > 0)) {
    throw bad("maxBytes must be a positive integer");
  }
  if (
    options.maxDeepen !== undefined &&
    !(Number.isSafeInteger(options.maxDeepen) && options.maxDeepen >= 0)
  ) {
    throw bad("maxDeepen must be a non-negative integer");
  }
}

async function fetchHead(session: Session, options: FetchWorkspaceOptions): Promise<void> {
  const what = `the head commit ${options.headSha}`;
  try {
    // The review's other commit comes in the same request (fetch-session.ts).
    await fetchCommit(session, options.headSha, what, options.mergeBaseSha ?? options.baseSha);
    return;
  } catch (error) {
    if (options.pullNumber === undefined || !isUnreachableFailure(error)) throw error;
  }
  // GitHub keeps every PR head under refs/pull/<n>/head, even for forks and deleted branches;
  // GitLab keeps every merge request's under refs/merge-requests/<iid>/head (the host says which).
  const ref = options.headRef ?? `refs/pull/${options.pullNumber}/head`;
  const { fetchHead: current } = await fetchAndInstall(session, what, {
    ref,
    singleBranch: true,
    depth: 1,
  });
  if (current === null || current === undefined) throw unreachable(what);
  if (current !== options.headSha)
    throw new PullRequestMovedError(options.pullNumber, options.headSha, current, ref);
  if (!(await hasCommit(session, options.headSha))) throw unreachable(what);
}
