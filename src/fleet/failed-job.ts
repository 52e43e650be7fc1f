// A review job whose runner failed (its forge away: the review did not run) ends as a failed BullMQ
// job, so the queue's dashboard shows it failed, not completed. Its pull request is freed first,
// so a newer push is not kept waiting for the lease to run out; and it is not retried by BullMQ,
// since a retry of a job whose pull request was freed is taken for stale and would end unseen.

import { UnrecoverableError } from "bullmq";
import { ForgeUnavailableError } from "../jobs/forge-unavailable.ts";
import { errorDetail } from "../log/error-detail.ts";

/** Any other rejection is BullMQ's to retry, as before. */
export async function failedJob(error: unknown, free: () => Promise<void>): Promise<never> {
  if (!(error instanceof ForgeUnavailableError)) throw error;
  await free().catch(() => undefined); // Redis away too: the lease runs out by itself
  throw new UnrecoverableError(errorDetail(error));
}
