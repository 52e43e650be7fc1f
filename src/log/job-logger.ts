// The two log levels a review job writes at; Probot's pino logger satisfies it, and so does a
// test's array. Its own file so every job module can log without importing another job module.

export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}
