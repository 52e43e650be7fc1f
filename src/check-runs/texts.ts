// Static, publishable check-run texts: a run waiting its turn, a run starting, and the ways a job
// can end without a review. Error details are reduced to a code or an HTTP status: provider
// bodies, paths and tokens never reach a check run.

import type { CheckRunOutput } from "../github/check-run.ts";
import { describeFailure } from "../pipeline/describe-failure.ts";
import { redactSecrets } from "../domain/redact.ts";
import type { CancelReason } from "../domain/cancel-reason.ts";
import { codeSpan, escapeText } from "../review/markdown-escape.ts";
import { cutCodePoints } from "../domain/text.ts";

const RERUN_HINT = "Press **Re-run review** to try again.";

export function queuedOutput(headSha: string): CheckRunOutput {
  return {
    title: "Loupe: queued",
    summary: `Loupe will review \`${headSha}\` as soon as a review slot is free.`,
  };
}

export function reviewingOutput(headSha: string): CheckRunOutput {
  return { title: "Loupe: reviewing", summary: `Loupe is reviewing \`${headSha}\`.` };
}

export function cancelledOutput(reason: CancelReason): CheckRunOutput {
  if (reason.kind === "superseded") {
    return {
      title: `Superseded by ${reason.headSha.slice(0, 7)}`,
      summary: `A newer push (\`${reason.headSha}\`) superseded this review; Loupe reviews that commit instead.`,
    };
  }
  if (reason.kind === "handback") {
    return {
      title: "Loupe: handed to another replica",
      summary: "This Loupe replica stopped; another replica continues this review on the same check run.",
    };
  }
  return {
    title: "Loupe restarted; press Re-run",
    summary: "Loupe restarted before this review finished. Press **Re-run review** to review this commit.",
  };
}

export function failureOutput(error: unknown): CheckRunOutput {
  return { title: "Review not completed", summary: `${describeFailure(error)} ${RERUN_HINT}` };
}

/** The repository's own file is quoted here (keys, YAML errors), so it is neutralised like model text. */
export function configErrorOutput(errors: readonly { path: string; message: string }[]): CheckRunOutput {
  const clean = (text: string) => escapeText(cutCodePoints(redactSecrets(text), 500), { oneLine: true });
  const lines = errors.map((e) => `- ${codeSpan(e.path || "(root)")}: ${clean(e.message)}`);
  return {
    title: ".github/loupe.yml is invalid",
    summary: `Fix \`.github/loupe.yml\` on the default branch, then press **Re-run review**.\n\n${lines.join("\n")}`,
  };
}
