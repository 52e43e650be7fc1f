// What `loupe review` says on stderr while it waits, when stderr is a terminal (never in a pipe or
// a CI log, whose stdout is the result): which provider it asked, each round as it is answered,
// and, while an answer is outstanding, how long the provider has been silent, so a hung provider
// is visible long before the review's time limit.

import type { RoundProgress } from "../llm/types.ts";

export interface ProgressTarget {
  /** host[:port] of OPENAI_BASE_URL. */
  readonly host: string;
  readonly model: string;
  readonly timeoutMs: number;
}

export interface ProgressClock {
  readonly now: () => number;
  /** Calls `tick` every `ms` until the returned function is called. */
  readonly repeat: (tick: () => void, ms: number) => () => void;
}

export interface ReviewProgress {
  readonly onRound: (progress: RoundProgress) => void;
  readonly stop: () => void;
}

const SILENCE_NOTICE_MS = 15_000;

const realClock: ProgressClock = {
  now: Date.now,
  repeat: (tick, ms) => {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export function startReviewProgress(
  write: (text: string) => void,
  target: ProgressTarget,
  clock: ProgressClock = realClock,
): ReviewProgress {
  let waitingSince = clock.now();
  const limit = Math.round(target.timeoutMs / 1000);
  write(`loupe: reviewing with ${target.model} at ${target.host} (time limit ${limit} s)\n`);
  const stopTicking = clock.repeat(() => {
    const silent = Math.floor((clock.now() - waitingSince) / 1000);
    if (silent > 0) write(`loupe: waiting for ${target.host}: no answer in ${silent} s\n`);
  }, SILENCE_NOTICE_MS);
  return {
    onRound: (progress) => {
      waitingSince = clock.now();
      const calls = `${progress.toolCalls} tool call${progress.toolCalls === 1 ? "" : "s"}`;
      write(
        `loupe: round ${progress.round} of at most ${progress.maxRounds} answered · ${calls} so far · ${progress.totalTokens} tokens\n`,
      );
    },
    stop: stopTicking,
  };
}
