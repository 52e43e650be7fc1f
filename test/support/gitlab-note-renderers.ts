// Every note Loupe writes on a GitLab merge request, from the same model-written fields as the
// GitHub renderers (publish-renderers.ts), as GitLab receives it: rendered for a host with wide
// references, a range's suggestion in GitLab's words, and through the client's outgoing step.
// The fields reach every place a model's text can: a disputed finding's verifier reason and quote,
// the summary note's verification list (titles, reasons, quotes) and ledger, notes, replies.

import type { Finding } from "../../src/domain/finding.ts";
import { NO_SPEND } from "../../src/domain/spend.ts";
import { outgoing } from "../../src/forges/gitlab/gitlab-api.ts";
import { summaryNoteText } from "../../src/forges/gitlab/gitlab-review.ts";
import { SUMMARY_MARKER } from "../../src/forges/gitlab/merge-request-status.ts";
import { gitLabSuggestion } from "../../src/forges/gitlab/suggestion.ts";
import { gitLabWords } from "../../src/forges/gitlab/words.ts";
import type { LoopResult } from "../../src/llm/types.ts";
import { renderCheckRunOutput } from "../../src/report/check-run-output.ts";
import type { InlineAnchor, PublishPlan } from "../../src/review/plan-types.ts";
import { renderReviewBody } from "../../src/review/render-body.ts";
import { renderInlineComment } from "../../src/review/render-inline.ts";
import { renderThreadReply } from "../../src/review/render-reply.ts";
import type { ModelFields } from "./publish-renderers.ts";

export const GITLAB_REPOSITORY = {
  owner: "team",
  repo: "values",
  host: "gitlab.example.com",
  references: "wide" as const,
};
const SHA = "0123456789abcdef0123456789abcdef01234567";

export interface GitLabNoteRenderer {
  readonly name: string;
  /** The note's text as GitLab receives it. */
  render(fields: ModelFields): string;
}

function finding(f: ModelFields, line: number | null = 3): Finding {
  return {
    severity: "high",
    title: f.title,
    explanation: f.explanation,
    path: f.path,
    line,
    end_line: line === null ? null : line + 2,
    evidence: f.evidence,
    recommendation: f.recommendation,
    suggestion: f.suggestion,
  };
}

const disputed = (f: ModelFields): Finding => ({
  ...finding(f),
  disputed: { reason: f.note, quote: f.suggestion },
});

function loopResult(f: ModelFields): LoopResult {
  const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };
  const held = { finding: finding(f), reason: f.note, quote: f.evidence };
  return {
    termination_reason: "final_review",
    review: { summary: f.summary, findings: [finding(f)], notes: [f.note] },
    usage,
    spend: NO_SPEND,
    rounds: 1,
    tool_calls: 1,
    duration_ms: 10,
    trace: [],
    verification: {
      kept: 1,
      unproven: 0,
      refuted: [held],
      disputed: [held],
      unquoted: 0,
      unverified: [{ finding: finding(f), why: { kind: "no_verdict", reason: "invalid_model_response" } }],
    },
  };
}

const anchor: InlineAnchor = { kind: "inline", path: "a.ts", line: 5, side: "RIGHT", fullRange: true };
const leaves = (field: "note" | "body", text: string) =>
  String((outgoing({ [field]: text }) as Record<string, unknown>)[field]);

export const GITLAB_NOTE_RENDERERS: readonly GitLabNoteRenderer[] = [
  {
    name: "draft note of a disputed finding with a range's suggestion",
    render: (f) => {
      const body = renderInlineComment(
        disputed(f),
        anchor,
        "00112233aabbccdd",
        true,
        GITLAB_REPOSITORY,
        gitLabWords("loupe-bot"),
      );
      return leaves("note", gitLabSuggestion({ path: "a.ts", line: 5, startLine: 3, body }));
    },
  },
  {
    name: "review body draft note, every finding in it",
    render: (f) => {
      const plan: PublishPlan = {
        inline: [
          {
            path: "a.ts",
            line: 3,
            side: "RIGHT",
            body: "",
            finding: disputed(f),
            fingerprint: "00112233aabbccdd",
          },
        ],
        outside: [{ finding: finding(f, null), reason: "no_line", fingerprint: "ffeeddccbbaa9988" }],
        belowThreshold: [{ ...finding(f), severity: "info" }],
        duplicates: [],
        dismissed: [],
        raised: new Set(),
        placed: [],
      };
      const review = { summary: f.summary, findings: [], notes: [f.note] };
      return leaves(
        "body",
        renderReviewBody({
          review,
          plan,
          headSha: SHA,
          checkRunId: 7,
          repository: GITLAB_REPOSITORY,
          words: gitLabWords(null),
          allInBody: true,
        }),
      );
    },
  },
  {
    name: "summary note",
    render: (f) => {
      const output = renderCheckRunOutput({
        result: loopResult(f),
        words: gitLabWords("loupe-bot"),
        conclusion: "success",
        findingsBySeverity: { critical: 0, high: 1, medium: 0, low: 0, info: 0 },
        filesReviewed: 1,
        filesSkipped: 0,
        headSha: SHA,
        extraNote: f.note,
        ledger: {
          fresh: 0,
          counts: { open: 1, fixed: 0, withdrawn: 0, dismissed: 1 },
          dismissedRepeats: 1,
          dismissals: [
            { path: f.path, line: 3, title: f.title, dismissal: { by: "dev", at: null, how: "reaction" } },
          ],
        },
        references: "wide",
      });
      return leaves("body", `${SUMMARY_MARKER}\n${summaryNoteText(output)}`);
    },
  },
  {
    name: "reply in a thread",
    render: (f) =>
      leaves(
        "body",
        renderThreadReply({
          reply: `${f.explanation}\n\n${f.evidence}\n\n${f.suggestion}`,
          status: "fixed",
          spend: { rounds: 2, toolCalls: 1 },
          answering: 4242,
          repository: GITLAB_REPOSITORY,
        }),
      ),
  },
];
