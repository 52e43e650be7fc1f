// A webhook into the fleet's queue. It is answered as soon as its job is durable and decided: the
// job is added held back (no worker takes it before it is decided), decided by pr-state's script,
// and released. Its `queued` check run is made afterwards, in the background (GitHub paces an
// installation's writes one a second: a burst of webhooks waiting for them missed GitHub's
// deadline), under an announcement claim (announcement.ts) that keeps it from racing the worker.

import { randomUUID } from "node:crypto";
import type { CancelReason } from "../domain/cancel-reason.ts";
import type { ReviewRequest } from "../domain/review-request.ts";
import { QueueUnavailableError, withinMs } from "../jobs/queue-unavailable.ts";
import type { EnqueueOutcome } from "../jobs/review-queue.ts";
import type { FleetContext } from "./fleet-context.ts";
import { storedRequest } from "./stored-request.ts";

/** A job added but not yet decided waits this long before a worker may take it (see above). */
const HOLD_MS = 60_000;
/** Within BullMQ's largest priority (2^21 - 1). */
const MAX_PRIORITY = 2_000_000;

export function fleetEnqueue(fleet: FleetContext): (request: ReviewRequest) => Promise<EnqueueOutcome> {
  return async (request) => {
    const jobId = randomUUID();
    let outcome: EnqueueOutcome;
    try {
      outcome = await withinMs(fleet.timing.enqueueTimeoutMs, () => admit(fleet, request, jobId));
    } catch (error) {
      throw new QueueUnavailableError(error, `Redis at ${fleet.redisAddress} did not answer`);
    }
    if (outcome === "queued") fleet.track(announce(fleet, request, jobId));
    return outcome;
  };
}

/** Durable and decided: the job in Redis, the pull request's rules applied, the job released. */
async function admit(fleet: FleetContext, request: ReviewRequest, jobId: string): Promise<EnqueueOutcome> {
  const { producer } = fleet;
  // Without an offline queue a command fails at once while connecting: a webhook that arrives as
  // the replica starts (or as Redis comes back) waits for the connection instead.
  if (producer.status !== "ready") await new Promise((resolve) => producer.once("ready", resolve));
  // Held back until decided, at the back of the line: decide() ranks it below.
  const job = await fleet.queue.add(
    "review",
    { request, checkRun: null },
    {
      jobId,
      delay: HOLD_MS,
      priority: MAX_PRIORITY,
      attempts: 3,
      backoff: { type: "exponential", delay: 5_000 },
      removeOnComplete: { age: 86_400, count: 1000 },
      removeOnFail: { age: 7 * 86_400 },
    },
  );
  const { headSha, deliveryId, rerun } = request;
  const decision = await fleet.acceptState.decide({ target: request, jobId, deliveryId, headSha, rerun });
  if (decision.outcome !== "queued") {
    await job.remove().catch(() => undefined);
    return decision.outcome;
  }
  // Fairness: the n-th live job of an installation gets priority n, so every installation's
  // first job comes before any installation's second (BullMQ runs lower numbers first). The rank
  // is the one decide() counted in the same script that added the job to the installation's live
  // jobs: a count read before it, as a burst of webhooks does side by side, gave them all one rank.
  await job.changePriority({ priority: Math.min(decision.rank, MAX_PRIORITY) });
  const reason: CancelReason = { kind: "superseded", headSha };
  if (decision.abort !== null)
    await producer.publish(fleet.abortChannel, JSON.stringify({ jobId: decision.abort, reason }));
  if (decision.drop !== null) fleet.track(dropWaiting(fleet, decision.drop, reason));
  await job.promote().catch(() => undefined); // already due: nothing to release
  return "queued";
}

/** The queued check run, made once the webhook is answered, unless a worker started the job first. */
async function announce(fleet: FleetContext, request: ReviewRequest, jobId: string): Promise<void> {
  const { announcements, timing } = fleet;
  if (!(await announcements.claim(jobId))) return;
  // A live announcer keeps its claim while GitHub paces its write; a dead one's claim expires.
  const renew = setInterval(() => void announcements.renew(jobId).catch(() => undefined), timing.lockMs / 3);
  let runId: number | null = null;
  try {
    runId = await fleet.options.announce(request);
  } finally {
    clearInterval(renew);
  }
  // A claim that expired meanwhile: the worker looks for this run on GitHub (findOpenRun).
  if (!(await announcements.record(jobId, runId)) || runId === null) return;
  const reason = await fleet.acceptState.supersededBy(jobId);
  if (reason === null) return;
  // Replaced by a newer push while its run was being made: whoever takes the run cancels it.
  const taken = await announcements.take(jobId);
  if (taken !== null) await fleet.options.cancel(request, taken, reason);
}

/** A waiting job replaced by a newer push: out of the queue, its queued run cancelled. */
async function dropWaiting(fleet: FleetContext, jobId: string, reason: CancelReason): Promise<void> {
  const job = await fleet.queue.getJob(jobId);
  if (job === undefined) return;
  // A worker may have taken it a moment ago: then it sees it is superseded and ends itself.
  await job.remove().catch(() => undefined);
  const runId = await fleet.announcements.take(jobId);
  if (runId !== null) await fleet.options.cancel(storedRequest(job.data.request), runId, reason);
}
