// The merge request on GitLab, in the port's words: the merge request from its diff_refs, the
// configuration and guidance from the default branch, its changed files, a workspace fetched over
// git HTTP from the immutable head with the token in a header, what was said on it as raw records
// and threads, publishing once per (head, run) as draft notes and one bulk publish, and its
// discussions as the port's threads (a reply, a resolve). The token
// is the operator's setting, registered for redaction at start: disposing forgets nothing more.

import type { ChangeSet } from "../../domain/changed-file.ts";
import type { ForgeWords } from "../../domain/forge-words.ts";
import type { FetchWorkspace, PullRequestHost } from "../../host/pull-request-host.ts";
import type { Workspace, WorkspaceHandle } from "../../workspace/types.ts";
import { compareHeads } from "./compare-heads.ts";
import { type GitLabApi, projectId } from "./gitlab-api.ts";
import {
  canPush,
  type DiffRefs,
  type GitLabTarget,
  mergeRequestHeadRef,
  projectPath,
  readMergeRequest,
} from "./merge-request.ts";
import { mergeRequestChanges } from "./merge-request-changes.ts";
import { readRecords } from "./notes.ts";
import { readOrganisationConfig } from "./organisation-config.ts";
import { publishReview } from "./publish-review.ts";
import { gitLabGuidanceSource, type ProjectRef, readConfigFile } from "./repository-files.ts";
import { gitLabThreads } from "./threads.ts";
import { gitLabWords } from "./words.ts";

export interface GitLabHostOptions<W extends WorkspaceHandle = Workspace> {
  readonly api: GitLabApi;
  readonly target: GitLabTarget;
  /** The instance's base URL (https://gitlab.example.com): git is at <url>/<project>.git. */
  readonly url: string;
  readonly token: string;
  readonly fetchWorkspace: FetchWorkspace<W>;
  /** The token's own username: only its texts count as Loupe's. */
  readonly self: () => Promise<string>;
  /** GITLAB_CONFIG_PROJECT: the project whose file is the organisation's layer; absent: none. */
  readonly configProject?: string | null;
  /** How its texts name GitLab and the rerun command (absent: without the token's username). */
  readonly words?: ForgeWords;
}

/** The port, and what GitLab's commit status needs of the merge request it read. */
export type GitLabHost<W extends WorkspaceHandle> = PullRequestHost<W> &
  AsyncDisposable & {
    /** The `ref` for the head's commit status (read with the merge request). */
    statusRef(): Promise<string>;
  };

export function gitLabHost<W extends WorkspaceHandle>(options: GitLabHostOptions<W>): GitLabHost<W> {
  const { api, target } = options;
  const path = projectPath(target);
  const mr = `/projects/${projectId(path)}/merge_requests/${target.pullNumber}`;
  const project: ProjectRef = { id: projectId(path), defaultBranch: once(() => defaultBranch(api, path)) };
  let refs: DiffRefs | null = null;
  let statusRef: string | null = null;
  let changes: ChangeSet | null = null;
  const read = async () => {
    const read = await readMergeRequest(api, target);
    refs = read.diffRefs;
    statusRef = read.statusRef;
    return read;
  };
  const diffRefs = async () => refs ?? (await read()).diffRefs;
  const changesOf = async (headSha: string) => {
    changes = await mergeRequestChanges(api, target, { diffRefs: await diffRefs(), headSha });
    return changes;
  };
  return {
    // GitLab links !12, $12, &12, %name, ~name… after Markdown, and runs a note's /quick actions.
    repository: {
      owner: target.owner,
      repo: target.repo,
      host: new URL(options.url).host,
      references: "wide",
    },
    words: options.words ?? gitLabWords(null),
    pullRequest: async () => (await read()).pullRequest,
    repoConfig: () => readConfigFile(api, project),
    organisationConfig: async () =>
      options.configProject ? await readOrganisationConfig(api, options.configProject) : null,
    changes: (pullRequest) => changesOf(pullRequest.headSha),
    guidance: { source: gitLabGuidanceSource(api, project), origin: "the default branch" },
    openWorkspace: async ({ pullRequest, mergeBaseSha, signal }) =>
      await options.fetchWorkspace({
        url: `${options.url.replace(/\/+$/, "")}/${path}.git`,
        headSha: pullRequest.headSha,
        mergeBaseSha,
        baseSha: pullRequest.baseSha,
        pullNumber: target.pullNumber,
        // GitLab keeps every merge request's head here, a fork's included (on no branch of the project).
        headRef: mergeRequestHeadRef(target.pullNumber),
        token: options.token,
        signal,
      }),
    history: {
      read: async () => readRecords(api, mr, await options.self()),
      changedSince: (fromSha, toSha) => compareHeads(api, project.id, { fromSha, toSha }),
    },
    publisher: {
      publish: async (review) =>
        publishReview(api, {
          target,
          self: await options.self(),
          diffRefs: await diffRefs(),
          changes: changes ?? (await changesOf(review.headSha)),
          review,
        }),
    },
    threads: gitLabThreads(api, mr, options.self),
    people: { canWrite: (login) => canPush(api, target, login) },
    statusRef: async () => statusRef ?? (await read()).statusRef,
    [Symbol.asyncDispose]: async () => {},
  };
}

async function defaultBranch(api: GitLabApi, path: string): Promise<string> {
  const project = await api.get<{ default_branch: string | null }>(`/projects/${projectId(path)}`);
  if (project.default_branch === null) throw new Error(`GitLab project ${path} has no default branch`);
  return project.default_branch;
}

/** The first call's promise, shared by every later call. */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () => {
    made ??= make();
    return made;
  };
}
