// Pure mapping from a webhook (event name, delivery id, payload) to review requests or a skip.
// It reads the payload defensively: webhooks are input, and a field GitHub left out must become
// a clear skip rather than a crash. Drafts and bot authors are flagged here but decided later,
// because `review_drafts`/`ignore_bots` live in the repository's `.github/loupe.yml`.

import { labelNames } from "../../../conversation/pause-state.ts";
import type {
  GitHubReview,
  MappedEvent,
  PullRequestSnapshot,
  ReviewRequest,
  ReviewTrigger,
  SkippedEvent,
  SkipReason,
} from "../../../domain/review-request.ts";
import { parseExternalId } from "../external-id.ts";
import { authorRole } from "./author-role.ts";

export interface WebhookInput {
  readonly name: string;
  readonly id: string;
  readonly payload: unknown;
}

export interface MappingOptions {
  /** Loupe's own app id: re-run events for other apps' check runs are ignored. */
  readonly appId: number | null;
  /** The id of the check run action that re-runs a review. */
  readonly rerunIdentifier: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === "object" && v !== null ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isSafeInteger(v) ? v : null);
const SHA = /^[0-9a-f]{40}$/;
const sha = (v: unknown): string | null => {
  const s = str(v);
  return s !== null && SHA.test(s) ? s : null;
};

function skip(reason: SkipReason, message: string): SkippedEvent {
  return { kind: "skip", reason, message };
}

interface Repository {
  readonly forge: "github";
  readonly owner: string;
  readonly repo: string;
}

interface Common extends Repository {
  readonly installationId: number;
}

function repositoryOf(payload: Json): Repository | SkippedEvent {
  const repository = obj(payload.repository);
  const owner = str(obj(repository?.owner)?.login);
  const repo = str(repository?.name);
  if (owner === null || repo === null) return skip("unsupported_event", "The event names no repository.");
  return { forge: "github", owner, repo };
}

function common(payload: Json): Common | SkippedEvent {
  const installationId = num(obj(payload.installation)?.id);
  if (installationId === null) return skip("no_installation", "The event carries no installation id.");
  const repository = repositoryOf(payload);
  return "kind" in repository ? repository : { installationId, ...repository };
}

/** The webhook being mapped: its delivery id, its payload, its action and the shared fields. */
interface Delivery<B extends Repository = Common> {
  readonly id: string;
  readonly payload: Json;
  readonly action: string;
  readonly base: B;
}

/** Re-runs carry no PR snapshot: the job reads the pull request itself (pulls.get). */
function rerunRequest(
  d: Delivery,
  trigger: ReviewTrigger,
  pullNumber: number,
  headSha: string,
): ReviewRequest {
  return { ...d.base, deliveryId: d.id, trigger, pullNumber, headSha, rerun: true, pullRequest: null };
}

const PR_ACTIONS = new Set(["opened", "reopened", "synchronize", "ready_for_review"]);

/** `event`: the event's name as the reader knows it (the Action's `pull_request_target`). */
function fromPullRequest<B extends Repository>(d: Delivery<B>, event: string): MappedEvent<GitHubReview & B> {
  const { action } = d;
  if (!PR_ACTIONS.has(action)) return skip("unknown_action", `${event}.${action} is not reviewed.`);
  const pr = obj(d.payload.pull_request);
  const number = num(pr?.number);
  const headSha = sha(obj(pr?.head)?.sha);
  const baseSha = str(obj(pr?.base)?.sha);
  if (!pr || number === null || headSha === null || baseSha === null) {
    return skip("no_pull_request", "The event carries no usable pull request.");
  }
  if (pr.state !== "open") return skip("pull_request_closed", `Pull request #${number} is closed.`);
  const snapshot: PullRequestSnapshot = {
    title: str(pr.title) ?? "",
    body: str(pr.body),
    url: str(pr.html_url) ?? "",
    baseRef: str(obj(pr.base)?.ref) ?? "",
    baseSha,
    draft: pr.draft === true,
    author: {
      login: str(obj(pr.user)?.login),
      isBot: obj(pr.user)?.type === "Bot",
      role: authorRole(pr.author_association),
    },
    open: true,
    labels: labelNames(pr.labels),
  };
  const request: GitHubReview & B = {
    ...d.base,
    deliveryId: d.id,
    trigger: `pull_request.${action}` as ReviewTrigger,
    pullNumber: number,
    headSha,
    rerun: false,
    pullRequest: snapshot,
  };
  return { kind: "review", requests: [request] };
}

function isForeignApp(app: unknown, options: MappingOptions): boolean {
  const appId = num(obj(app)?.id);
  return options.appId !== null && appId !== options.appId;
}

/** PR numbers from pull_requests[] that target this repository (minimal PR objects). */
function numbersFrom(list: unknown, repositoryId: number | null): number[] {
  if (!Array.isArray(list)) return [];
  const out = new Set<number>();
  for (const item of list) {
    const pr = obj(item);
    const n = num(pr?.number);
    const baseRepoId = num(obj(obj(pr?.base)?.repo)?.id);
    if (n !== null && (repositoryId === null || baseRepoId === null || baseRepoId === repositoryId))
      out.add(n);
  }
  return [...out];
}

function fromCheckRun(d: Delivery, options: MappingOptions): MappedEvent {
  const { action, payload } = d;
  if (action === "created" || action === "completed") {
    return skip("own_check_event", `check_run.${action} never starts a review.`);
  }
  if (action !== "rerequested" && action !== "requested_action") {
    return skip("unknown_action", `check_run.${action} is not handled.`);
  }
  const run = obj(payload.check_run);
  if (isForeignApp(run?.app, options))
    return skip("foreign_check_run", "The check run belongs to another app.");
  if (action === "requested_action") {
    const identifier = str(obj(payload.requested_action)?.identifier);
    if (identifier !== options.rerunIdentifier) {
      return skip("unknown_action", "The requested action is not Loupe's re-run.");
    }
  }
  const headSha = sha(run?.head_sha);
  if (headSha === null) return skip("no_pull_request", "The check run has no head SHA.");
  const repositoryId = num(obj(payload.repository)?.id);
  const number =
    parseExternalId(run?.external_id) ?? numbersFrom(run?.pull_requests, repositoryId)[0] ?? null;
  if (number === null) return skip("no_pull_request", "The check run names no pull request.");
  return { kind: "review", requests: [rerunRequest(d, `check_run.${action}`, number, headSha)] };
}

function fromCheckSuite(d: Delivery, options: MappingOptions): MappedEvent {
  const { action, payload } = d;
  if (action !== "rerequested") return skip("unknown_action", `check_suite.${action} is not handled.`);
  const suite = obj(payload.check_suite);
  if (isForeignApp(suite?.app, options))
    return skip("foreign_check_run", "The check suite belongs to another app.");
  const headSha = sha(suite?.head_sha);
  if (headSha === null) return skip("no_pull_request", "The check suite has no head SHA.");
  const numbers = numbersFrom(suite?.pull_requests, num(obj(payload.repository)?.id));
  if (numbers.length === 0) {
    // Fork PRs: the suite lists no pull request. Re-running Loupe's own check run works there.
    return skip(
      "no_pull_request",
      "The check suite names no pull request; re-run Loupe's check run instead.",
    );
  }
  const requests = numbers.map((n) => rerunRequest(d, "check_suite.rerequested", n, headSha));
  return { kind: "review", requests };
}

export function toReviewRequest(input: WebhookInput, options: MappingOptions): MappedEvent {
  const payload = obj(input.payload);
  if (!payload) return skip("unsupported_event", "The event has no payload.");
  if (input.name !== "pull_request" && input.name !== "check_run" && input.name !== "check_suite") {
    return skip("unsupported_event", `${input.name} events are not handled.`);
  }
  const base = common(payload);
  if ("kind" in base) return base;
  const delivery: Delivery = { id: input.id, payload, action: str(payload.action) ?? "", base };
  if (input.name === "pull_request") return fromPullRequest(delivery, "pull_request");
  if (input.name === "check_run") return fromCheckRun(delivery, options);
  return fromCheckSuite(delivery, options);
}

/**
 * A pull request event's review without an App's installation: the GitHub Action's, whose workflow
 * event carries none and may be named `pull_request_target` (its skips say so).
 */
export function toPullRequestReview(input: WebhookInput): MappedEvent<GitHubReview> {
  const payload = obj(input.payload);
  if (!payload) return skip("unsupported_event", "The event has no payload.");
  const base = repositoryOf(payload);
  if ("kind" in base) return base;
  return fromPullRequest({ id: input.id, payload, action: str(payload.action) ?? "", base }, input.name);
}
