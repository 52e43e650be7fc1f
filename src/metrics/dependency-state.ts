// The state of one dependency (Redis, GitHub, the model provider) as an operator reads it: one line
// when it goes down, one "still down" line every `stillDownEveryMs` with the errors counted since
// the last line, one line when it is back — however many connections, retries and events report
// each failure (a replica with Redis away once wrote 67 lines a second). Every error is counted in
// the metrics by kind. Pure but for the clock and the logger, which are injected.

import { type ErrorKind, errorKind, tlsCode } from "../domain/error-kind.ts";
import { errorDetail } from "../log/error-detail.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { DependencyName, Metrics } from "./metrics.ts";

export interface DependencyState {
  /** An error talking to the dependency: counted, and logged if it is news. */
  failed(error: unknown): void;
  /** The dependency answered (a connection is ready, a request succeeded). */
  succeeded(): void;
  isDown(): boolean;
  /** What kind of failure it is down with (the last one), or null while it answers. */
  downKind(): ErrorKind | null;
}

export interface DependencyStateOptions {
  readonly dependency: DependencyName;
  readonly log: JobLogger;
  readonly metrics: Pick<Metrics, "dependencyError">;
  readonly stillDownEveryMs: number;
  readonly now?: () => number;
}

interface Down {
  readonly since: number;
  lastLineAt: number;
  errorsSinceLine: number;
  errors: number;
  kind: ErrorKind;
}

export function createDependencyState(options: DependencyStateOptions): DependencyState {
  const { dependency, log, metrics, stillDownEveryMs } = options;
  const now = options.now ?? Date.now;
  let down: Down | null = null;
  return {
    failed(error) {
      const kind = errorKind(error);
      metrics.dependencyError(dependency, kind);
      const at = now();
      if (down === null) {
        down = { since: at, lastLineAt: at, errorsSinceLine: 0, errors: 1, kind };
        const fields = { event: "dependency_down", dependency, kind, error: errorDetail(error) };
        const tls = tlsCode(error);
        // A certificate Node does not trust is a setting to fix, not an outage to wait out: say which.
        if (tls !== null)
          log.warn(
            { ...fields, tls },
            `${dependency} is down: its TLS certificate is not trusted (${tls}); give Loupe the CA with NODE_EXTRA_CA_CERTS`,
          );
        else log.warn(fields, `${dependency} is down`);
        return;
      }
      down.errors++;
      down.errorsSinceLine++;
      down.kind = kind;
      if (at - down.lastLineAt < stillDownEveryMs) return;
      log.warn(
        {
          ...{ event: "dependency_still_down", dependency, kind, error: errorDetail(error) },
          ...{ errors: down.errorsSinceLine, errors_total: down.errors, down_ms: at - down.since },
        },
        `${dependency} is still down`,
      );
      down.lastLineAt = at;
      down.errorsSinceLine = 0;
    },
    succeeded() {
      if (down === null) return;
      const fields = { dependency, errors_total: down.errors, down_ms: now() - down.since };
      down = null;
      log.info({ event: "dependency_up", ...fields }, `${dependency} is back`);
    },
    isDown: () => down !== null,
    downKind: () => down?.kind ?? null,
  };
}

export type DependencyStates = Readonly<Record<DependencyName, DependencyState>>;

/** One state per dependency, for the whole process. */
export function createDependencyStates(
  log: JobLogger,
  metrics: Pick<Metrics, "dependencyError">,
  stillDownEveryMs: number,
): DependencyStates {
  const state = (dependency: DependencyName) =>
    createDependencyState({ dependency, log, metrics, stillDownEveryMs });
  return {
    github: state("github"),
    gitlab: state("gitlab"),
    provider: state("provider"),
    redis: state("redis"),
  };
}
