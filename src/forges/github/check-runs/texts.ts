// Static check-run texts of a job not yet reviewing: a run waiting its turn, a run starting.

import type { CheckRunOutput } from "../../../report/review-report.ts";

export function queuedOutput(headSha: string): CheckRunOutput {
  return {
    title: "Loupe: queued",
    summary: `Loupe will review \`${headSha}\` as soon as a review slot is free.`,
  };
}

export function reviewingOutput(headSha: string): CheckRunOutput {
  return { title: "Loupe: reviewing", summary: `Loupe is reviewing \`${headSha}\`.` };
}
