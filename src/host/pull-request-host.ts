// The port between the review pipeline and wherever the pull request lives: what one review needs
// to read, and the optional capabilities only some hosts have. GitHub (the App) has them all; a
// local repository (the CLI) has no history, publishes nothing and has no threads. An absent
// capability is an absent object, never a method that pretends.

import type { ComparedFile } from "../conversation/file-changes.ts";
import type { HeadComparison } from "../conversation/review-scope.ts";
import type { ChangeSet } from "../domain/changed-file.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import type { LoupeHistory } from "../github/posted-fingerprints.ts";
import type { InlineComment, PublishOutcome } from "../github/publish-review.ts";
import type { ConfigFileRead } from "../github/repo-config-file.ts";
import type { GuidanceSource } from "../guidance/types.ts";
import type { Workspace, WorkspaceHandle } from "../workspace/types.ts";

/** The repository a review is of; links in model text may point only into it. */
export interface HostRepository {
  readonly owner: string;
  readonly repo: string;
  /** The web host of the repository's links, e.g. github.com. */
  readonly host: string;
}

/** `.github/loupe.yml` as the host reads it (never from the head), and where it came from, in words. */
export interface HostConfigFile {
  readonly file: ConfigFileRead;
  readonly source: string;
}

/** What Loupe said before on the pull request, and what changed since a commit it reviewed. */
export interface HostHistory {
  read(): Promise<LoupeHistory>;
  /** compare from...to; null when the host cannot say (the old head is gone). */
  changedSince(
    fromSha: string,
    toSha: string,
  ): Promise<(HeadComparison & { readonly files: readonly ComparedFile[] }) | null>;
}

export interface HostReview {
  readonly headSha: string;
  /** The hidden (head, run) marker that lets a retry find a review that already landed. */
  readonly marker: string;
  readonly body: string;
  readonly comments: readonly InlineComment[];
  /** The same review with every finding in the body, for when the host refuses the inline comments. */
  readonly allInBody: () => string;
}

export interface HostPublisher {
  publish(review: HostReview): Promise<PublishOutcome>;
}

export interface HostThreads {
  /** Resolves Loupe's own threads whose finding no longer applies; counts what it did. */
  resolveFixed(input: {
    readonly raised: ReadonlySet<string>;
    readonly newFiles: readonly ComparedFile[] | null;
    readonly hasReviewComments: boolean;
  }): Promise<{ readonly resolved: number; readonly failed: number }>;
}

/** The people of the repository, as far as a review needs to know them. */
export interface HostPeople {
  /** Whether the login has write access or more to the repository. */
  canWrite(login: string): Promise<boolean>;
}

/** W: the workspace as the host's fetch makes it (a Workspace, or a handle to one in a worker thread). */
export interface PullRequestHost<W extends WorkspaceHandle = Workspace> {
  readonly repository: HostRepository;
  pullRequest(): Promise<PullRequest>;
  repoConfig(): Promise<HostConfigFile>;
  changes(pullRequest: PullRequest): Promise<ChangeSet>;
  readonly guidance: { readonly source: GuidanceSource; readonly origin: string };
  /** The two commits under review; the workspace owns whatever credential fetched it. */
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
