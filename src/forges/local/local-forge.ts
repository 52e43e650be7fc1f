// The local forge: a change between two revisions of a repository on this machine (or a clone
// URL), for `loupe review`. No webhook reaches it, so the App does not serve it (no start): it
// runs one review for the app that asks, through the one review job, with the local host (no
// history, no publishing, no threads, no people) and a report printed where the caller prints it
// (the CLI: JSON, Markdown or SARIF on stdout) once the review ended, with its progress on a
// terminal while it runs. Nothing is published, so the report is never refused.

import type { Forge } from "../../forge/forge.ts";
import type { RoundProgress } from "../../llm/types.ts";
import { startReviewDeadline } from "../../pipeline/review-deadline.ts";
import type { ReviewOutcome } from "../../pipeline/review-outcome.ts";
import { type LocalHostOptions, localHost } from "./local-host.ts";
import { LOCAL_WORDS } from "./words.ts";

export interface LocalReview extends Omit<LocalHostOptions, "signal"> {
  /** The caller's cancellation (an interrupt). */
  readonly signal: AbortSignal;
  /** REVIEW_TIMEOUT_MS: counted from before the first git read. */
  readonly timeoutMs: number;
  /** The review's output, once it ended; `configuration`: where the repository's settings came from. */
  readonly print: (outcome: ReviewOutcome, configuration: string) => void;
  /** The progress shown while the review runs (a terminal's); absent: none. */
  readonly progress?: () => { onRound(progress: RoundProgress): void; stop(): void };
}

export const LOCAL_FORGE = {
  id: "local",
  review: async (asked: LocalReview) => {
    // The review's time starts before the first git read: the local host reads the repository on
    // the pipeline's first question, under the deadline's signal.
    const deadline = startReviewDeadline({ timeoutMs: asked.timeoutMs, now: Date.now, signal: asked.signal });
    const host = localHost({ ...asked, signal: deadline.signal });
    // A repository the host cannot read (too large, past the deadline) is the pipeline's to end:
    // its first question meets the same failure, and the output names no configuration then.
    const configuration = await host.repoConfig().then(
      (file) => file.source,
      () => "(the repository could not be read)",
    );
    let progress: ReturnType<NonNullable<LocalReview["progress"]>> | undefined;
    let headSha = asked.head;
    return {
      host,
      words: LOCAL_WORDS,
      deadline,
      reporter: {
        open: async (head) => {
          headSha = head;
          progress = asked.progress?.();
          return 0;
        },
        progress: (round) => progress?.onRound(round),
        complete: async (_ending, outcome) => {
          try {
            asked.print(outcome, configuration);
          } finally {
            progress?.stop();
          }
          return { reported: true, headSha };
        },
      },
    };
  },
} satisfies Forge<never, LocalReview>;
