// A webhook Loupe could not put in the shared queue. Probot's webhook middleware answers with an
// error's `status`, so this one is answered 503 and GitHub records a failed delivery that can be
// redelivered. The answer names the dependency that failed (where Redis is, no credentials);
// Redis's own message stays in the log.

export class QueueUnavailableError extends Error {
  readonly status = 503;
  /** `failed`: which dependency did not take the work, e.g. "Redis at 10.0.0.5:6379 did not answer". */
  constructor(cause: unknown, failed: string) {
    super(`the review queue cannot take work now: ${failed}`, { cause });
    this.name = "QueueUnavailableError";
  }
}

/** Runs `work`, rejecting if it has not settled after `ms` (the work itself is not stopped). */
export async function withinMs<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
