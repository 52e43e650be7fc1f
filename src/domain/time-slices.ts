// Long synchronous work cut into slices of the event loop, which every installation's webhooks
// and /healthz share: the work asks `due()` between two of its steps (a clock reading), and when
// the current slice is used up, `pause()` lets one macrotask turn run before it goes on.

import { performance } from "node:perf_hooks";

export interface SliceOptions {
  /** Longest run of synchronous work before yielding (default 5 ms). */
  readonly sliceMs?: number;
  readonly now?: () => number;
  readonly yieldTurn?: () => Promise<void>;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class TimeSlices {
  private readonly sliceMs: number;
  private readonly now: () => number;
  private readonly yieldTurn: () => Promise<void>;
  private sliceStart: number;

  constructor(options: SliceOptions = {}) {
    this.sliceMs = options.sliceMs ?? 5;
    this.now = options.now ?? (() => performance.now());
    this.yieldTurn = options.yieldTurn ?? nextTurn;
    this.sliceStart = this.now();
  }

  /** Whether the current slice is used up. */
  due(): boolean {
    return this.now() - this.sliceStart >= this.sliceMs;
  }

  /** Yields one turn when the slice is used up; the next slice starts after it. */
  async pause(): Promise<void> {
    if (!this.due()) return;
    await this.yieldTurn();
    this.sliceStart = this.now();
  }
}
