// The port between the review pipeline and wherever the pull request lives, in its own words: what
// one review needs to read, and the optional capabilities only some hosts have. GitHub (the App,
// the Action) has them all; a local repository (the CLI) has no history, publishes nothing and has
// no threads. An absent capability is an absent object, never a method that pretends. Adapters
// map their host's answers into these types; no host's own type appears here.

import type { ConfigFile } from "../config/config-file-read.ts";
import type { HeadComparison } from "../conversation/review-scope.ts";
import type { HostText } from "../conversation/review-state.ts";
import type { ReviewThread } from "../conversation/review-thread.ts";
import type { ChangedFile, ChangeSet } from "../domain/changed-file.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import type { GuidanceSource } from "../guidance/types.ts";
import type { ReferenceSyntax } from "../review/wide-references.ts";
import type { Workspace, WorkspaceHandle } from "../workspace/types.ts";

/** The repository a review is of; links in model text may point only into it. */
export interface HostRepository {
  readonly owner: string;
  readonly repo: string;
  /** The web host of the repository's links, e.g. github.com. */
  readonly host: string;
  /** How the host links references in rendered text; absent: as GitHub does. */
  readonly references?: ReferenceSyntax;
}

export type { ConfigFileRead } from "../config/config-file-read.ts";

/** `.github/loupe.yml` as the host reads it (never from the head), and where it came from, in words. */
export type HostConfigFile = ConfigFile;

/** What was said on the pull request, raw: the pipeline applies Loupe's rules to it (loupe-history.ts). */
export interface HostRecords {
  /** Loupe's own login on the host: only its texts count as Loupe's. */
  readonly self: string;
  readonly comments: readonly HostText[];
  readonly reviews: readonly HostText[];
}

/** Two heads compared: whether the old one is an ancestor of the new, and what changed since. */
export interface HeadsCompared extends HeadComparison {
  readonly files: readonly ChangedFile[];
}

/** What was said before on the pull request (its threads are `HostThreads`), and what changed since a commit Loupe reviewed. */
export interface HostHistory {
  read(): Promise<HostRecords>;
  /** compare from...to; null when the host cannot say (the old head is gone). */
  changedSince(fromSha: string, toSha: string): Promise<HeadsCompared | null>;
}

/** One comment on a line (or lines) of the head's side of the diff. */
export interface HostComment {
  readonly path: string;
  readonly body: string;
  readonly line: number;
  /** The first line of a multi-line comment. */
  readonly startLine?: number;
}

export interface HostReview {
  readonly headSha: string;
  /** The hidden (head, run) marker that lets a retry find a review that already landed. */
  readonly marker: string;
  readonly body: string;
  readonly comments: readonly HostComment[];
  /** The same review with every finding in the body, for when the host refuses the inline comments. */
  readonly allInBody: () => string;
}

/**
 * What publishing did: posted now (maybe all in the body, or some comments in one note of their
 * own: `unplaced`, a host that validates a line only when it publishes it), or found already
 * posted by a retry.
 */
export type Published =
  | {
      readonly kind: "posted";
      readonly reviewId: number;
      readonly allInBody: boolean;
      /** Comments the host would not place on their lines, posted together in one note instead. */
      readonly unplaced?: number;
    }
  | { readonly kind: "already_posted"; readonly reviewId: number };

export interface HostPublisher {
  publish(review: HostReview): Promise<Published>;
}

/** The pull request's review threads, and who Loupe is among their authors. */
export interface HostThreadList {
  /** Loupe's own login on the host: only its comments count as Loupe's. */
  readonly self: string;
  readonly threads: readonly ReviewThread[];
}

/**
 * Review threads: read them (the ledger's, a review's and a reply's one way), answer in one,
 * resolve one. Which of Loupe's threads to resolve is decided once, over the port
 * (pipeline/resolve-fixed.ts).
 */
export interface HostThreads {
  /**
   * Every review thread of the pull request, with its comments in order and who resolved it.
   * `thumbsDown`: with the 👎 on the first comment of Loupe's threads too (the ledger's
   * dismissals), which a host may read at a cost (GitLab: a request a thread) and then reads only
   * when asked; a host that reads them with the threads gives them either way.
   */
  list(options?: { readonly thumbsDown?: boolean }): Promise<HostThreadList>;
  /** Posts a reply at the end of the thread whose first comment is `rootCommentId`. */
  reply(input: { readonly rootCommentId: number; readonly body: string }): Promise<void>;
  /** Resolves one thread (its `ReviewThread.id`). */
  resolve(threadId: string): Promise<void>;
}

/** The people of the repository, as far as a review needs to know them. */
export interface HostPeople {
  /** Whether the login has write access or more to the repository. */
  canWrite(login: string): Promise<boolean>;
}

/** What a fetch of the two commits of a pull request is told: plain data, and a signal. */
export interface FetchWorkspaceInput {
  readonly url: string;
  readonly headSha: string;
  readonly mergeBaseSha: string;
  readonly baseSha: string;
  readonly pullNumber: number;
  /** The host's ref holding the head, when it is not GitHub's refs/pull/<n>/head. */
  readonly headRef?: string;
  /** The host's credential for git over HTTP, sent only as a header; absent for a public clone. */
  readonly token: string;
  readonly signal: AbortSignal;
}

/**
 * Fetches the two commits of a pull request from a git host; W is what the caller holds of the
 * result (the workspace, or a handle to it in a worker thread).
 */
export type FetchWorkspace<W extends WorkspaceHandle = Workspace> = (
  input: FetchWorkspaceInput,
) => Promise<W>;

/** W: the workspace as the host's fetch makes it (a Workspace, or a handle to one in a worker thread). */
export interface PullRequestHost<W extends WorkspaceHandle = Workspace> {
  readonly repository: HostRepository;
  /** How the texts a review publishes name this forge, its change and its rerun. */
  readonly words: ForgeWords;
  pullRequest(): Promise<PullRequest>;
  repoConfig(): Promise<HostConfigFile>;
  /**
   * The organisation's file (GitHub: `<owner>/.github`, GitLab: GITLAB_CONFIG_PROJECT), read from
   * that repository's default branch, never from a pull request or a fork; null when there is none
   * or the host may not read it. Absent: the host has no organisation layer (a local repository).
   */
  organisationConfig?(): Promise<HostConfigFile | null>;
  changes(pullRequest: PullRequest): Promise<ChangeSet>;
  readonly guidance: { readonly source: GuidanceSource; readonly origin: string };
  /**
   * The two commits under review, opened by the host and handed to the pipeline, which disposes
   * them; the workspace owns whatever credential fetched it.
   */
  openWorkspace(input: {
    readonly pullRequest: PullRequest;
    readonly mergeBaseSha: string;
    readonly signal: AbortSignal;
  }): Promise<W>;
  readonly history?: HostHistory;
  readonly publisher?: HostPublisher;
  readonly threads?: HostThreads;
  readonly people?: HostPeople;
}
