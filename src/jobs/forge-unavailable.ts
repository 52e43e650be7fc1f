// What a review job throws once it has reported a review its forge kept from running (the forge
// itself was away): the queue fails the job visibly, and a shared queue does not retry it.

import type { TerminationReason } from "../domain/outcome.ts";

export class ForgeUnavailableError extends Error {
  readonly terminationReason: TerminationReason;
  constructor(terminationReason: TerminationReason, message: string, cause: unknown) {
    super(message, { cause });
    this.terminationReason = terminationReason;
  }
}
