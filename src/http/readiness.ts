// What GET /readyz reports for the running App: ready once the queue has started and says it can
// take work, until SIGTERM. The queue answers through the function it is registered with (the
// in-process queue is ready as soon as it exists; a queue on a remote store would ask its store).

import type { Readiness } from "./ops-routes.ts";

export interface ReadinessTracker {
  readonly check: () => Readiness;
  /** `storeDown`: whether the queue's store (Redis) is known to be unreachable, to name it. */
  queueStarted(isReady: () => boolean, storeDown?: () => boolean): void;
  /** A dependency's problem that no waiting fixes (a certificate not trusted): its sentence, or null. */
  dependencyProblem(problem: () => string | null): void;
  shuttingDown(): void;
}

export function createReadinessTracker(): ReadinessTracker {
  let queueReady: (() => boolean) | null = null;
  let storeDown: () => boolean = () => false;
  let stopping = false;
  const problems: (() => string | null)[] = [];
  return {
    check() {
      if (stopping) return { ready: false, reason: "shutting down" };
      if (queueReady === null) return { ready: false, reason: "starting" };
      if (!queueReady())
        return {
          ready: false,
          reason: storeDown()
            ? "Redis (REDIS_URL) is unreachable, so the review queue cannot take work"
            : "the review queue cannot take work",
        };
      for (const problem of problems) {
        const reason = problem();
        if (reason !== null) return { ready: false, reason };
      }
      return { ready: true };
    },
    dependencyProblem(problem) {
      problems.push(problem);
    },
    queueStarted(isReady, isStoreDown) {
      queueReady = isReady;
      if (isStoreDown !== undefined) storeDown = isStoreDown;
    },
    shuttingDown() {
      stopping = true;
    },
  };
}
