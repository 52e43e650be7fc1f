// The one logger type: the three levels Loupe writes at, with fields first and a message. Probot's
// pino logger satisfies it, and so does a test's array; a module asks only for the levels it
// writes (a Pick), so a job, which never writes an error line (its failures are outcomes), takes
// JobLogger. In core so every band can log without importing another's module.

export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** The two levels a job writes at (a review, a reply, the journal of open runs). */
export type JobLogger = Pick<Logger, "info" | "warn">;
