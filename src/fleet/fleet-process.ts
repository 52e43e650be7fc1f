// A fleet job on this replica's worker: it claims its pull request (busy: again in a second; stale:
// a newer push replaced it), finds its check run (the one an earlier attempt opened, or the queued
// one announced for it, waiting while that announcement's write is in flight), then runs with an
// abort signal raised by BullMQ's own cancellation (`worker.cancelJob`: a newer push heard on the
// pub/sub channel, or the shutdown's hand-back) or by its own poll of the pull request's state.

import { DelayedError, type Job, WaitingError } from "bullmq";
import type { CancelReason } from "../domain/cancel-reason.ts";
import { queueKey } from "../domain/review-request.ts";
import type { KnownRun, ReviewJob } from "../jobs/review-job.ts";
import { failedJob } from "./failed-job.ts";
import { decodeReason, type FleetContext, type StoredJob } from "./fleet-context.ts";
import { storedRequest } from "./stored-request.ts";

/** A job whose pull request is busy (another review of it runs) is looked at again after this. */
const BUSY_RETRY_MS = 1_000;
/** How often a starting job asks whether its announcement's write has landed. */
const ANNOUNCEMENT_POLL_MS = 200;

export function fleetProcessor(fleet: FleetContext, onIdle: () => void) {
  // Three parameters: BullMQ then gives each job an abort signal that `worker.cancelJob` raises.
  return async (job: Job<StoredJob>, token: string | undefined, signal: AbortSignal | undefined) => {
    const request = storedRequest(job.data.request);
    const jobId = job.id!;
    const { workState } = fleet;
    const claim = await workState.claim(request, jobId, request.headSha);
    if (claim === "busy") {
      await job.moveToDelayed(Date.now() + BUSY_RETRY_MS, token);
      throw new DelayedError();
    }
    if (claim === "stale") {
      const reason = await workState.supersededBy(jobId);
      const runId = (await fleet.announcements.take(jobId)) ?? job.data.checkRun?.id ?? null;
      if (reason !== null && runId !== null) await fleet.options.cancel(request, runId, reason);
      await workState.finish(request, jobId, request.headSha, false);
      return;
    }
    fleet.log.info({ key: queueKey(request), jobId, attempt: job.attemptsStarted }, "fleet job started");
    const checkRun = job.data.checkRun ?? (await announcedRun(fleet, jobId, request.headSha));
    const reviewJob: ReviewJob = {
      ...{ request, checkRun, attempt: job.attemptsStarted },
      ...(checkRun === null ? { findOpenRun: true } : {}),
    };
    const controller = new AbortController();
    // BullMQ's signal carries the reason as text (see redis-queue.ts); the runner gets it as a value.
    signal?.addEventListener("abort", () => {
      const reason = decodeReason(signal.reason);
      if (reason !== null) controller.abort(reason);
    });
    const settlement = await watched(fleet, job, controller, reviewJob).finally(() => {
      fleet.running.delete(jobId);
      if (fleet.running.size === 0) onIdle();
    });
    const reason = controller.signal.reason as CancelReason | undefined;
    if (controller.signal.aborted && reason?.kind === "handback") {
      // Back into the queue, still holding its pull request: the next replica resumes it.
      await job.moveToWait(token);
      throw new WaitingError();
    }
    const remember = settlement.remember && !controller.signal.aborted;
    await workState.finish(request, jobId, request.headSha, remember);
  };
}

/** The runner, stopped when a newer push supersedes the job or its lease is lost. */
async function watched(
  fleet: FleetContext,
  job: Job<StoredJob>,
  controller: AbortController,
  reviewJob: ReviewJob,
) {
  const { request } = reviewJob;
  const jobId = job.id!;
  const stopIfSuperseded = async () => {
    const reason = await fleet.workState.supersededBy(jobId);
    if (reason !== null) controller.abort(reason);
    else if (!(await fleet.workState.renew(request, jobId)))
      controller.abort({ kind: "superseded", headSha: request.headSha });
  };
  await stopIfSuperseded();
  const poll = setInterval(() => void stopIfSuperseded().catch(() => undefined), fleet.timing.pollMs);
  const onCheckRun = async (run: KnownRun) => {
    await job.updateData({ request, checkRun: run });
  };
  const done = fleet.options.runner(reviewJob, controller.signal, onCheckRun);
  fleet.running.set(jobId, { done });
  try {
    // A review GitHub kept from running fails its job visibly (failed-job.ts), its pull request freed.
    return await done.catch((error: unknown) =>
      failedJob(error, () => fleet.workState.finish(request, jobId, request.headSha, false)),
    );
  } finally {
    clearInterval(poll);
  }
}

/** The queued run announced for the job; null when none was recorded (the job looks on GitHub). */
async function announcedRun(fleet: FleetContext, jobId: string, headSha: string): Promise<KnownRun | null> {
  for (;;) {
    const start = await fleet.announcements.start(jobId);
    if (start.kind === "adopt") return { id: start.id, headSha };
    if (start.kind === "create") return null;
    // An announcer's write is in flight; its claim expires within the lock time if it died.
    await new Promise((resolve) => setTimeout(resolve, ANNOUNCEMENT_POLL_MS));
  }
}
