// A webhook Loupe could not put in the shared queue. Probot's webhook middleware answers with an
// error's `status`, so this one is answered 503 and GitHub records a failed delivery that can be
// redelivered; Redis's own message stays in the log, never in the answer.

export class QueueUnavailableError extends Error {
  readonly status = 503;
  constructor(cause: unknown) {
    super("the review queue cannot take work now", { cause });
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
