// A review job as plain data, the same whether it waits in this process or in Redis: the request,
// the check run made for it before it ran, and which attempt this is. Nothing in it is tied to a
// process (no client, no callback): whoever runs it authenticates as the installation itself.

import type { ReviewRequest } from "../domain/review-request.ts";

/** A report Loupe made earlier for a job (GitHub's check run) and the commit it is about. */
export interface KnownRun {
  readonly id: number;
  readonly headSha: string;
}

export interface ReviewJob<R extends ReviewRequest = ReviewRequest> {
  readonly request: R;
  /** The `queued` run made while the job waited, or the run an earlier attempt started. */
  readonly checkRun: KnownRun | null;
  /** 1 for the first run; higher when the job runs again (taken over after a crash, handed back). */
  readonly attempt: number;
  /**
   * With no run recorded, one may still exist on GitHub: a shared queue makes a job's queued run
   * after answering its webhook, and a replica may die before recording it. The job looks first.
   */
  readonly findOpenRun?: boolean;
}

export function newJob(request: ReviewRequest, checkRunId: number | null = null): ReviewJob {
  return {
    request,
    checkRun: checkRunId === null ? null : { id: checkRunId, headSha: request.headSha },
    attempt: 1,
  };
}
