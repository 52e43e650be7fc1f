// Static, publishable check-run texts: a run waiting its turn, a run starting, and the ways a job
// can end without a review, in the words of the forge that shows them (a GitLab summary note has
// the same endings). Error details are reduced to a code or an HTTP status: provider bodies, paths
// and tokens never reach a check run.

import type { CancelReason } from "../../../domain/cancel-reason.ts";
import { type ForgeWords, rerunMarkdown } from "../../../domain/forge-words.ts";
import { redactSecrets } from "../../../domain/redact.ts";
import { cutCodePoints } from "../../../domain/text.ts";
import { describeFailure } from "../../../pipeline/describe-failure.ts";
import type { CheckRunOutput } from "../../../report/review-report.ts";
import { fitBlocks } from "../../../review/fit-blocks.ts";
import { serializeBlocks } from "../../../review/markdown-serialize.ts";
import { type Block, code, paragraph, strong, text } from "../../../review/markdown-tree.ts";
import { CHECK_RUN_TEXT_LIMIT } from "../check-run.ts";

export function queuedOutput(headSha: string): CheckRunOutput {
  return {
    title: "Loupe: queued",
    summary: `Loupe will review \`${headSha}\` as soon as a review slot is free.`,
  };
}

export function reviewingOutput(headSha: string): CheckRunOutput {
  return { title: "Loupe: reviewing", summary: `Loupe is reviewing \`${headSha}\`.` };
}

export function cancelledOutput(reason: CancelReason, words: ForgeWords): CheckRunOutput {
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
    title: `Loupe restarted; ${words.rerunTitle}`,
    summary: `Loupe restarted before this review finished. ${rerunMarkdown(words)} to review this commit.`,
  };
}

export function failureOutput(error: unknown, words: ForgeWords): CheckRunOutput {
  const summary = `${describeFailure(error, words.forge)} ${rerunMarkdown(words)} to try again.`;
  return { title: "Review not completed", summary };
}

/**
 * The repository's own file is quoted here (keys, YAML errors), so it is neutralised like model
 * text, and fitted on the Markdown tree: a 64 KiB file can hold thousands of errors.
 */
export function configErrorOutput(
  errors: readonly { path: string; message: string }[],
  words: ForgeWords,
): CheckRunOutput {
  const { verb, control, kind } = words.rerun;
  const blocks: Block[] = [
    paragraph(
      text("Fix "),
      code(".github/loupe.yml"),
      text(` on the default branch, then ${verb} `),
      kind === "button" ? strong(text(control)) : kind === "command" ? code(control) : text(control),
      text("."),
    ),
    ...errors.map((e) =>
      paragraph(
        text("• "),
        code(e.path || "(root)"),
        text(`: ${cutCodePoints(redactSecrets(e.message), 500).replace(/\s+/g, " ")}`),
      ),
    ),
  ];
  return {
    title: ".github/loupe.yml is invalid",
    summary: serializeBlocks(fitBlocks(blocks, CHECK_RUN_TEXT_LIMIT)),
  };
}
