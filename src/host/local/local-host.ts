// A change in a local repository (or a clone URL) as a pull request, for `loupe review`: the
// head and the merge-base of two revisions, the configuration read from the base side (or a file
// the user names), guidance from the base revision, and Loupe's own diff in GitHub's shape. It
// keeps no history, publishes nothing and has no threads: the CLI prints what the App would post.

import path from "node:path";
import { changesOf } from "../../diff/changes.ts";
import type { PullRequest } from "../../domain/pull-request.ts";
import { snapshotGuidanceSource } from "../../guidance/snapshot-source.ts";
import type { Workspace } from "../../workspace/types.ts";
import type { HostConfigFile, HostRepository, PullRequestHost } from "../pull-request-host.ts";
import { localChangedFiles } from "./local-changed-files.ts";

export interface LocalHostOptions {
  /** The repository as given: a directory or a clone URL (its name is shown, never a local path). */
  readonly repo: string;
  readonly workspace: Workspace;
  readonly configFile: HostConfigFile;
}

export function localHost(options: LocalHostOptions): PullRequestHost & AsyncDisposable {
  const { workspace } = options;
  let disposed: Promise<void> | null = null;
  // Whoever ends first, the pipeline (after the loop) or the command (after an early skip), removes it.
  const disposeOnce = (): Promise<void> => {
    disposed ??= workspace.dispose();
    return disposed;
  };
  const pullRequest: PullRequest = {
    number: null,
    url: "",
    title: "",
    body: null,
    headSha: workspace.head.commit,
    baseSha: workspace.mergeBase.commit,
    draft: false,
    author: { login: null, isBot: false, association: "OWNER" },
    open: true,
    labels: [],
  };
  return {
    repository: repositoryName(options.repo),
    pullRequest: async () => pullRequest,
    repoConfig: async () => options.configFile,
    changes: async () => ({
      mergeBaseSha: workspace.mergeBase.commit,
      files: await localChangedFiles(await changesOf(workspace), workspace.objects),
      filesTruncated: false,
      headMovedTo: null,
    }),
    guidance: {
      source: snapshotGuidanceSource(workspace.mergeBase, workspace.objects),
      origin: "the base revision",
    },
    openWorkspace: async () => ({ ...workspace, dispose: disposeOnce }),
    [Symbol.asyncDispose]: disposeOnce,
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
