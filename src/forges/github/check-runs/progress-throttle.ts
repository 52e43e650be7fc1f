// Check-run progress while the loop runs: at most one update per interval, never awaited by the
// loop (a slow GitHub must not slow the review), and at most one in flight. `settle()` waits for
// the last one, so a late progress PATCH can never overwrite the completed run's output.

import type { RoundProgress } from "../../../llm/types.ts";

export interface ProgressThrottle {
  report(progress: RoundProgress): void;
  settle(): Promise<void>;
}

export function createProgressThrottle(options: {
  readonly intervalMs: number;
  readonly now: () => number;
  readonly send: (progress: RoundProgress) => Promise<void>;
  readonly onError: (error: unknown) => void;
}): ProgressThrottle {
  let lastSent = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | null = null;
  let closed = false;
  return {
    report(progress) {
      if (closed || inFlight !== null || options.now() - lastSent < options.intervalMs) return;
      lastSent = options.now();
      inFlight = options
        .send(progress)
        .catch(options.onError)
        .finally(() => {
          inFlight = null;
        });
    },
    async settle() {
      closed = true;
      if (inFlight !== null) await inFlight;
    },
  };
}
