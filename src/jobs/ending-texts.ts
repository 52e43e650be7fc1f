// Static, publishable texts of the ways a job can end without a review, in the words of the forge
// that shows them (a check run, a summary note). Error details are reduced to a code or an HTTP status: provider bodies, paths
// and tokens never reach a check run.

import type { CancelReason } from "../domain/cancel-reason.ts";
import { type ForgeWords, rerunMarkdown } from "../domain/forge-words.ts";
import { redactSecrets } from "../domain/redact.ts";
import { cutCodePoints } from "../domain/text.ts";
import { describeFailure } from "../pipeline/describe-failure.ts";
import type { ConfigError } from "../pipeline/review-outcome.ts";
import type { CheckRunOutput } from "../report/review-report.ts";
import { fitBlocks } from "../review/fit-blocks.ts";
import { serializeBlocks } from "../review/markdown-serialize.ts";
import { type Block, code, paragraph, strong, text } from "../review/markdown-tree.ts";

/** The tightest limit of a report's text (a check run's summary and text): every ending fits it. */
export const REPORT_TEXT_LIMIT = 65_535;

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
 * The repository's own file (or the organisation's) is quoted here (keys, YAML errors), so it is
 * neutralised like model text, and fitted on the Markdown tree: a 64 KiB file can hold thousands of
 * errors. Each error names its file when the settings had more than one layer.
 */
export function configErrorOutput(errors: readonly ConfigError[], words: ForgeWords): CheckRunOutput {
  const { verb, control, kind } = words.rerun;
  const organisation = errors.filter((e) => e.layer === "organisation");
  const files = [...new Set(errors.map((e) => e.file ?? ".github/loupe.yml on the default branch"))];
  const blocks: Block[] = [
    paragraph(
      text("Fix "),
      ...files.flatMap((file, i) => [...(i > 0 ? [text(" and ")] : []), code(cutCodePoints(file, 300))]),
      text(`, then ${verb} `),
      kind === "button" ? strong(text(control)) : kind === "command" ? code(control) : text(control),
      text("."),
    ),
    ...errors.map((e) =>
      paragraph(
        text("• "),
        ...(e.layer === "organisation" ? [text("organisation's file: ")] : []),
        code(e.path || "(root)"),
        text(`: ${cutCodePoints(redactSecrets(e.message), 500).replace(/\s+/g, " ")}`),
      ),
    ),
  ];
  return {
    title:
      organisation.length === 0
        ? ".github/loupe.yml is invalid"
        : organisation.length === errors.length
          ? "The organisation's Loupe settings are invalid"
          : "The organisation's and the repository's Loupe settings are invalid",
    summary: serializeBlocks(fitBlocks(blocks, REPORT_TEXT_LIMIT)),
  };
}
