// After a review: resolve Loupe's own threads whose finding no longer applies (select-resolvable.ts
// has the rule), once over the port for every forge, one thread at a time (GitHub paces its
// writes). Skipped without a call when Loupe never left a review comment on the pull request.
// What it resolved is told by fingerprint, so the ledger counts those findings fixed on any forge.

import { fileChanges } from "../conversation/file-changes.ts";
import { loupeFingerprint } from "../conversation/review-thread.ts";
import { selectResolvable } from "../conversation/select-resolvable.ts";
import type { ChangedFile } from "../domain/changed-file.ts";
import type { HostThreads } from "../host/pull-request-host.ts";

export interface Resolved {
  readonly resolved: number;
  readonly failed: number;
  /** The fingerprints of the findings whose threads the host confirmed resolved. */
  readonly fingerprints: readonly string[];
}

export async function resolveFixed(
  threads: Pick<HostThreads, "list" | "resolve">,
  input: {
    /** Every fingerprint the new review raised, new or already posted. */
    readonly raised: ReadonlySet<string>;
    /** The incremental diff's files; null after a full review. */
    readonly newFiles: readonly ChangedFile[] | null;
    readonly hasReviewComments: boolean;
  },
): Promise<Resolved> {
  if (!input.hasReviewComments) return { resolved: 0, failed: 0, fingerprints: [] };
  const { self, threads: listed } = await threads.list();
  const chosen = selectResolvable({
    threads: listed,
    botLogin: self,
    raisedAgain: input.raised,
    changes: input.newFiles === null ? null : fileChanges(input.newFiles),
  });
  const fingerprints: string[] = [];
  let resolved = 0;
  for (const thread of chosen) {
    const ok = await threads.resolve(thread.id).then(
      () => true,
      () => false,
    );
    if (!ok) continue;
    resolved++;
    const fingerprint = loupeFingerprint(thread, self);
    if (fingerprint !== null) fingerprints.push(fingerprint);
  }
  return { resolved, failed: chosen.length - resolved, fingerprints };
}
