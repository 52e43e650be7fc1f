// What one search_repository call may spend: bytes scanned and time, each bounded, so a
// repository of many megabyte files (a few KB as a pack when each repeats one character) cannot
// keep the server busy for minutes; and slices of the event loop, so it cannot hold it meanwhile.
// When a bound is reached the search stops, and its result says where (search-repository.ts).

import { performance } from "node:perf_hooks";
import { TimeSlices } from "../domain/time-slices.ts";

export type SearchStop = "byte_budget" | "time_budget";

export interface SearchBudgetOptions {
  readonly maxBytes: number;
  readonly maxMs: number;
  readonly now?: () => number;
  readonly slices?: TimeSlices;
}

export class SearchBudget {
  private readonly maxBytes: number;
  private readonly deadline: number;
  private readonly now: () => number;
  private readonly slices: TimeSlices;
  private spent = 0;

  constructor(options: SearchBudgetOptions) {
    this.maxBytes = options.maxBytes;
    this.now = options.now ?? (() => performance.now());
    this.deadline = this.now() + options.maxMs;
    this.slices = options.slices ?? new TimeSlices();
  }

  /** Bytes that may still be scanned. */
  get bytesLeft(): number {
    return Math.max(0, this.maxBytes - this.spent);
  }

  charge(bytes: number): void {
    this.spent += bytes;
  }

  /** Why the search must stop before scanning more, or null. */
  stop(): SearchStop | null {
    if (this.spent >= this.maxBytes) return "byte_budget";
    if (this.now() >= this.deadline) return "time_budget";
    return null;
  }

  /** Lets other work run when this slice of the event loop is used up. */
  async pause(): Promise<void> {
    if (this.slices.due()) await this.slices.pause();
  }
}
