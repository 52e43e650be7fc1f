// A forge: the place a change under review lives (GitHub, GitLab, a local repository), each in
// its own folder under forges/, exporting one `Forge` value: its id and the ways it runs, an
// absent one absent. A forge the App's process serves is started with its own setup (GitHub: the
// Probot app; GitLab: its instance and token) and what the process gives every forge (this
// context), and gives the one review job and the one reply job what differs on it — its host, its
// words, whom the spend is counted for, how it reports a review — and the webhook routes the
// server mounts. A forge no webhook reaches (the local one) runs one review at a time for the app
// that asks. The registry of forges is the apps' (src/forge-registry.ts); nothing below the apps
// names a forge.

import type http from "node:http";
import type { AppConfig } from "../config/app-config.ts";
import type { CancelReason } from "../domain/cancel-reason.ts";
import type { ForgeTag, ReviewRequest } from "../domain/review-request.ts";
import type { KnownRun, ReviewJob } from "../jobs/review-job.ts";
import type { ReviewQueue } from "../jobs/review-queue.ts";
import type { Logger } from "../log/job-logger.ts";
import type { DependencyStates } from "../metrics/dependency-state.ts";
import type { Metrics } from "../metrics/metrics.ts";
import type { ReviewPorts } from "../pipeline/review-ports.ts";
import type { ThreadReplyRequest } from "../replies/handle-comment.ts";
import type { ReplyQueue } from "../replies/reply-queue.ts";
import type { Workspace, WorkspaceHandle } from "../workspace/types.ts";
import type { ForgeReply } from "./run-reply.ts";
import type { ForgeReview } from "./run-review.ts";

/** A forge's id: the `forge` tag of the requests it delivers, or the local forge's (it delivers none). */
export type ForgeId = ForgeTag["forge"] | "local";

/** What the App's process gives every forge it serves. */
export interface ForgeContext<W extends WorkspaceHandle> {
  readonly config: AppConfig;
  readonly ports: ReviewPorts<W>;
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly dependencies: DependencyStates;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock of caches and permissions (tests move it); absent: the process's. */
  readonly now?: () => number;
  readonly queues: { readonly reviews: ReviewQueue; readonly replies: ReplyQueue };
  /** REDIS_URL is set: several replicas share the queues. */
  readonly fleet: boolean;
}

export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean> | boolean;

/** A forge being served: its part of each job, its routes, and what it closes at shutdown. */
export interface ServedForge<W extends WorkspaceHandle> {
  /** The review job's forge part: the host, words, owner and reporter of one job. */
  review(
    job: ReviewJob,
    signal: AbortSignal,
    onCheckRun?: (run: KnownRun) => Promise<void>,
  ): Promise<ForgeReview<W>>;
  /** The reply job's forge part, once the job's clock started. */
  reply(request: ThreadReplyRequest, signal: AbortSignal): Promise<(started: number) => ForgeReply<W>>;
  /** The report shown while a job waits (GitHub's queued check run); its id, or null. */
  announce?(request: ReviewRequest): Promise<number | null>;
  /** Closes the report of a job that leaves the queue without running. */
  cancel?(request: ReviewRequest, reportId: number, reason: CancelReason): Promise<void>;
  /** HTTP routes the server mounts (GitLab's webhook); GitHub's arrive through Probot. */
  readonly routes: readonly Route[];
  /** The reports an earlier process left open, completed (GitHub's journal); resolves when done. */
  readonly recovery: Promise<void>;
  /** At shutdown: stops what the forge holds (deliveries waiting for a queue). */
  close(): void;
  /** Why the process is not ready on the forge's account (a setting no waiting fixes), or null. */
  notReady?(): string | null;
}

/** A forge's check before it is served: the line the process stops with, or the setup to serve, with what it found. */
export type StartCheck<Setup> = { readonly stop: string } | { readonly serve: Setup };

/** One forge: its id, and the ways it runs; one it does not have is absent (as the port's capabilities). */
export interface Forge<Setup = never, Once = never> {
  readonly id: ForgeId;
  /** Asked once before the process serves the forge: its setup against the forge itself (GitLab: its URL and token). */
  checkAtStart?(setup: Setup, log: Logger): Promise<StartCheck<Setup>>;
  /** Served by the App's process, started with its own setup; absent: no webhook reaches it. */
  start?<W extends WorkspaceHandle>(setup: Setup, context: ForgeContext<W>): ServedForge<W>;
  /** One review outside the App's queues, for the app that asks (`loupe review`): the job's forge part. */
  review?(once: Once): Promise<ForgeReview<Workspace>>;
}
