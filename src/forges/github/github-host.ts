// The pull request on GitHub, for the App and the Action: its state (pulls.get for re-runs),
// `.github/loupe.yml` and guidance from the default branch, the three-dot comparison, a workspace
// fetched with the installation token, what was said on the pull request as raw records, publishing
// once per (head, run), and Loupe's threads (read, answered, resolved). Disposing the host forgets
// the token.

import type { ConfigFile } from "../../config/config-file-read.ts";
import { REPO_CONFIG_PATH } from "../../config/repo-config.ts";
import type { FetchWorkspace, PullRequestHost } from "../../host/pull-request-host.ts";
import type { Workspace, WorkspaceHandle } from "../../workspace/types.ts";
import { comparePullRequest } from "./compare.ts";
import { compareHeads } from "./compare-heads.ts";
import { createConversationApi } from "./conversation-api.ts";
import { githubGuidanceSource } from "./guidance-source.ts";
import { readHistoryRecords } from "./history-records.ts";
import { installationToken } from "./installation-token.ts";
import type { GitHubClient } from "./octokit.ts";
import { readOrganisationConfigFile } from "./organisation-config-file.ts";
import { publishReview } from "./publish-review.ts";
import { readRepoConfigFile } from "./repo-config-file.ts";
import { type GitHubTarget, resolvePullRequest } from "./resolve-pull-request.ts";
import type { SecondaryRetryOptions } from "./retry-secondary.ts";
import { listReviewThreads, resolveReviewThread } from "./review-threads.ts";
import { GITHUB_WORDS } from "./words.ts";

export interface GitHubHostOptions<W extends WorkspaceHandle = Workspace> {
  readonly octokit: GitHubClient;
  /** The pull request; the App's delivery (installation, delivery id) is the job's, not the host's. */
  readonly request: GitHubTarget;
  /** The git host's base URL (https://github.com) and web host (github.com). */
  readonly gitBaseUrl: string;
  readonly gitHost: string;
  readonly fetchWorkspace: FetchWorkspace<W>;
  /** Loupe's own `<slug>[bot]` login: only its texts count as Loupe's. */
  readonly botLogin: () => Promise<string>;
  readonly retry: SecondaryRetryOptions;
  /** Where the repository's configuration is on the default branch (the Action's `config`). */
  readonly configPath?: string;
  /**
   * Reads the organisation's file through the App's cache; absent: read it each review (the
   * Action). The file is always `<owner>/.github`'s, whoever opened the pull request.
   */
  readonly organisationConfig?: (read: () => Promise<ConfigFile | null>) => Promise<ConfigFile | null>;
}

export function gitHubHost<W extends WorkspaceHandle>(
  options: GitHubHostOptions<W>,
): PullRequestHost<W> & AsyncDisposable {
  const { octokit, request } = options;
  const releases: (() => void)[] = [];
  const ref = { owner: request.owner, repo: request.repo };
  const pr = { ...ref, pullNumber: request.pullNumber };
  return {
    repository: { ...ref, host: options.gitHost },
    words: GITHUB_WORDS,
    pullRequest: () => resolvePullRequest(octokit, request),
    repoConfig: async () => ({
      file: await readRepoConfigFile(octokit, ref, options.configPath ?? REPO_CONFIG_PATH),
      source: `${options.configPath ?? REPO_CONFIG_PATH} on the default branch`,
    }),
    organisationConfig: () => {
      const read = () => readOrganisationConfigFile(octokit, request.owner);
      return options.organisationConfig === undefined ? read() : options.organisationConfig(read);
    },
    changes: (pullRequest) =>
      comparePullRequest(octokit, { ...pr, baseSha: pullRequest.baseSha, headSha: pullRequest.headSha }),
    guidance: { source: githubGuidanceSource(octokit, ref), origin: "the default branch" },
    openWorkspace: async ({ pullRequest, mergeBaseSha, signal }) => {
      // The installation token goes only to the configured git host, as a header; it is redacted
      // from every output until the host is disposed, after the last text that could quote it.
      const { token, release } = await installationToken(octokit);
      releases.push(release);
      return await options.fetchWorkspace({
        url: `${options.gitBaseUrl}/${request.owner}/${request.repo}.git`,
        headSha: pullRequest.headSha,
        mergeBaseSha,
        baseSha: pullRequest.baseSha,
        pullNumber: request.pullNumber,
        token,
        signal,
      });
    },
    history: {
      read: async () => readHistoryRecords(octokit, { ...pr, botLogin: await options.botLogin() }),
      changedSince: (fromSha, toSha) => compareHeads(octokit, { ...ref, fromSha, toSha }),
    },
    publisher: {
      publish: async (review) =>
        publishReview(octokit, {
          ...pr,
          ...review,
          botLogin: await options.botLogin(),
          retry: options.retry,
        }),
    },
    threads: {
      // GraphQL gives the 👎 with the threads, in the same query: asked or not.
      list: async () => ({ self: await options.botLogin(), threads: await listReviewThreads(octokit, pr) }),
      reply: async ({ rootCommentId, body }) => {
        await octokit.rest.pulls.createReplyForReviewComment({
          ...ref,
          pull_number: request.pullNumber,
          comment_id: rootCommentId,
          body,
        });
      },
      resolve: (threadId) => resolveReviewThread(octokit, threadId),
    },
    people: { canWrite: (login) => createConversationApi(octokit, ref).canWrite(login) },
    [Symbol.asyncDispose]: async () => {
      for (const release of releases.splice(0)) release();
    },
  };
}
