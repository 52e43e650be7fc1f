// A change in a local repository (or a clone URL) as a pull request, for `loupe review`: the
// head and the merge-base of two revisions, the configuration read from the base side (or a file
// the user names), guidance from the base revision, and Loupe's own diff in GitHub's shape. It
// keeps no history, publishes nothing and has no threads: the CLI prints what the App would post.

import path from "node:path";
import { changesOf } from "../../diff/changes.ts";
import { isLoupeError, LoupeError } from "../../domain/errors.ts";
import type { PullRequest } from "../../domain/pull-request.ts";
import { snapshotGuidanceSource } from "../../guidance/snapshot-source.ts";
import type { HostConfigFile, HostRepository, PullRequestHost } from "../../host/pull-request-host.ts";
import type { Workspace } from "../../workspace/types.ts";
import { readReviewConfigFile } from "./config-file.ts";
import { localChangedFiles } from "./local-changed-files.ts";
import { openRepository } from "./open-repository.ts";
import { LOCAL_WORDS } from "./words.ts";

export interface LocalHostOptions {
  /** The repository as given: a directory or a clone URL (its name is shown, never a local path). */
  readonly repo: string;
  readonly base: string;
  readonly head: string;
  /** --config: a file on this machine that replaces the committed one. */
  readonly configFile?: string;
  /** LOUPE_GIT_TOKEN and REVIEW_MAX_FETCH_BYTES for a clone URL. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal: AbortSignal;
}

interface Opened {
  readonly workspace: Workspace;
  readonly configFile: HostConfigFile;
}

/**
 * The host opens the two revisions itself, on the first question that needs them (the pull
 * request, the configuration, the changes), and hands the workspace to the pipeline as every host
 * does; disposing the host disposes it too, once, whoever ends first.
 */
export function localHost(options: LocalHostOptions): PullRequestHost & AsyncDisposable {
  let opening: Promise<Opened> | null = null;
  let disposed: Promise<void> | null = null;
  const opened = (): Promise<Opened> => {
    opening ??= openLocal(options);
    return opening;
  };
  const disposeOnce = async (): Promise<void> => {
    if (opening === null) return;
    const workspace = await opening.then(
      (o) => o.workspace,
      () => null,
    );
    disposed ??= workspace?.dispose() ?? Promise.resolve();
    return disposed;
  };
  return {
    repository: repositoryName(options.repo),
    words: LOCAL_WORDS,
    pullRequest: async () => localPullRequest((await opened()).workspace),
    repoConfig: async () => (await opened()).configFile,
    changes: async () => {
      const { workspace } = await opened();
      return {
        mergeBaseSha: workspace.mergeBase.commit,
        files: await localChangedFiles(await changesOf(workspace), workspace.objects),
        filesTruncated: false,
        headMovedTo: null,
      };
    },
    guidance: {
      source: {
        list: async (dir) => guidanceOf((await opened()).workspace).list(dir),
        read: async (file, maxBytes) => guidanceOf((await opened()).workspace).read(file, maxBytes),
      },
      origin: "the base revision",
    },
    openWorkspace: async () => ({ ...(await opened()).workspace, dispose: disposeOnce }),
    [Symbol.asyncDispose]: disposeOnce,
  };
}

function guidanceOf(workspace: Workspace) {
  return snapshotGuidanceSource(workspace.mergeBase, workspace.objects);
}

async function openLocal(options: LocalHostOptions): Promise<Opened> {
  const workspace = await openRepository(options).catch((error: unknown) => {
    // A directory that is not a repository, or a revision it does not have, is the caller's
    // input: bad usage (exit 2). The opener's messages name no local path; the caller typed this
    // one, so it is named back (which of two paths in a script was wrong).
    if (isLoupeError(error, "git_repository_invalid")) {
      throw new LoupeError("usage_invalid", `--repo ${JSON.stringify(options.repo)}: ${error.message}`);
    }
    if (isLoupeError(error, "git_commit_unreachable")) throw new LoupeError("usage_invalid", error.message);
    throw error;
  });
  try {
    const configFile = await readReviewConfigFile({
      repo: options.repo,
      base: options.base,
      isUrl: looksLikeUrl(options.repo),
      configFile: options.configFile,
      mergeBase: { snapshot: workspace.mergeBase, objects: workspace.objects },
    });
    return { workspace, configFile };
  } catch (error) {
    await workspace.dispose();
    throw error;
  }
}

/**
 * A local change has no pull request on any host: its two revisions, nothing a host would add (no
 * number, page, title or author), and never a draft, closed or labelled.
 */
function localPullRequest(workspace: Workspace): PullRequest {
  return {
    number: null,
    url: null,
    title: null,
    body: null,
    headSha: workspace.head.commit,
    baseSha: workspace.mergeBase.commit,
    draft: false,
    author: null,
    open: true,
    labels: [],
  };
}

export function looksLikeUrl(repo: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(repo);
}

/**
 * owner/repo for the prompt and the sanitiser: from a URL's host and path, or local/<dir name> on
 * github.com (never a full local path).
 */
function repositoryName(repo: string): HostRepository {
  if (looksLikeUrl(repo)) {
    const url = new URL(repo);
    const parts = url.pathname
      .replace(/\.git$/, "")
      .split("/")
      .filter(Boolean);
    const [owner = "unknown", name = "repository"] = parts.length >= 2 ? parts.slice(-2) : [];
    return { owner, repo: name, host: url.host };
  }
  return { owner: "local", repo: path.basename(path.resolve(repo)), host: "github.com" };
}
