// Every renderer that publishes model text, driven with the same model-written fields, each with
// the exact hidden markers it must carry and its GitHub length limit.

import type { Finding } from "../../src/domain/finding.ts";
import { NO_SPEND } from "../../src/domain/spend.ts";
import { clampOutput } from "../../src/forges/github/check-run.ts";
import { GITHUB_WORDS } from "../../src/forges/github/words.ts";
import { LOCAL_WORDS } from "../../src/forges/local/words.ts";
import { configErrorOutput } from "../../src/jobs/ending-texts.ts";
import type { LoopResult } from "../../src/llm/types.ts";
import {
  MAX_CHECK_RUN_FIELD,
  renderCheckRunOutput,
  renderSkipOutput,
} from "../../src/report/check-run-output.ts";
import type { CheckRunOutput } from "../../src/report/review-report.ts";
import { findingIdentity, identityMarker } from "../../src/review/finding-identity.ts";
import { fingerprintMarker } from "../../src/review/fingerprint.ts";
import type { InlineAnchor, PublishPlan } from "../../src/review/plan-types.ts";
import { MAX_REVIEW_BODY, renderReviewBody } from "../../src/review/render-body.ts";
import { renderCliMarkdown } from "../../src/review/render-cli.ts";
import { renderInlineComment } from "../../src/review/render-inline.ts";
import {
  renderReplyFailure,
  renderThreadReply,
  replyMarker,
  statusMarker,
} from "../../src/review/render-reply.ts";
import { reviewMarker } from "../../src/review/review-marker.ts";
import type { Expectation } from "./gfm-oracle.ts";

export const REPOSITORY = { owner: "acme", repo: "widgets", host: "github.com" };
export const LINK_PREFIX = "https://github.com/acme/widgets";
const SHA = "0123456789abcdef0123456789abcdef01234567";
const FPS = ["00112233aabbccdd", "ffeeddccbbaa9988", "0123456789abcdef"] as const;
const REVIEWED = `<!-- loupe:reviewed head=${SHA} base=${"b".repeat(40)} config=0123456789abcdef -->`;
/** Enough errors that long fields push the summary past GitHub's limit, so the clamp is tested. */
const CONFIG_ERRORS = 4;
/** The most findings a final review may hold. */
const MAX_FINDINGS = 100;

/** What a model (or a repository it read) controls. */
export interface ModelFields {
  readonly title: string;
  readonly explanation: string;
  readonly evidence: string;
  readonly recommendation: string;
  readonly suggestion: string;
  readonly path: string;
  readonly summary: string;
  readonly note: string;
  readonly tool: string;
}

export const allFields = (value: string): ModelFields => ({
  title: value,
  explanation: value,
  evidence: value,
  recommendation: value,
  suggestion: value,
  path: value,
  summary: value,
  note: value,
  tool: value,
});

export interface Rendered {
  readonly markdown: string;
  readonly expectation: Expectation;
  readonly limit: number;
}

export interface PublishRenderer {
  readonly name: string;
  render(fields: ModelFields): Rendered;
}

function finding(f: ModelFields, line: number | null = 3): Finding {
  return {
    severity: "high",
    title: f.title,
    explanation: f.explanation,
    path: f.path,
    line,
    evidence: f.evidence,
    recommendation: f.recommendation,
    suggestion: f.suggestion,
  };
}

const anchor: InlineAnchor = {
  kind: "inline",
  path: "a.ts",
  line: 3,
  side: "RIGHT",
  fullRange: true,
};

function loopResult(f: ModelFields): LoopResult {
  const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };
  return {
    termination_reason: "final_review",
    review: { summary: f.summary, findings: [finding(f), finding(f, null)], notes: [f.note, f.note] },
    usage,
    spend: NO_SPEND,
    rounds: 1,
    tool_calls: 1,
    duration_ms: 10,
    trace: [
      {
        round: 1,
        provider_request_id: null,
        provider_model: f.tool,
        finish_reason: f.tool,
        protocol_action: f.tool,
        usage,
        tool_calls: [
          {
            id: "c1",
            name: f.tool,
            arguments: { path: f.path, query: f.note },
            ok: true,
            result_preview: f.evidence,
            result_bytes: 1,
            truncated: false,
            duration_ms: 1,
          },
        ],
      },
    ],
  };
}

const none = { linkPrefix: null, markers: [] };

/** What the Checks API is sent: every output goes through the clamp (check-run.ts). */
const sent = (output: CheckRunOutput): CheckRunOutput => clampOutput(output);

export const PUBLISH_RENDERERS: readonly PublishRenderer[] = [
  {
    name: "inline comment",
    render: (f) => {
      // A dismissed finding raised again, with its ledger identity: every line Loupe can add.
      const identity = findingIdentity({ ...finding(f), code: "" });
      const marks = { fingerprint: FPS[0], identity, raisedAgain: true };
      return {
        markdown: renderInlineComment(finding(f), anchor, marks, true, REPOSITORY, GITHUB_WORDS),
        expectation: {
          linkPrefix: LINK_PREFIX,
          markers: [fingerprintMarker(FPS[0]), identityMarker(identity)],
        },
        limit: 65536,
      };
    },
  },
  {
    name: "review body",
    render: (f) => {
      const plan: PublishPlan = {
        inline: [],
        outside: [
          { finding: finding(f), reason: "line_not_in_diff", fingerprint: FPS[1] },
          { finding: finding(f, null), reason: "no_line", fingerprint: FPS[2] },
        ],
        belowThreshold: [{ ...finding(f), severity: "info" }],
        duplicates: [finding(f)],
        dismissed: [],
        raised: new Set(),
        placed: [],
      };
      const review = { summary: f.summary, findings: [], notes: [f.note, f.note] };
      return {
        markdown: renderReviewBody({
          review,
          plan,
          headSha: SHA,
          checkRunId: 7,
          repository: REPOSITORY,
          words: GITHUB_WORDS,
          trailingMarkers: [REVIEWED],
        }),
        expectation: {
          linkPrefix: LINK_PREFIX,
          markers: [fingerprintMarker(FPS[1]), fingerprintMarker(FPS[2]), reviewMarker(SHA, 7), REVIEWED],
        },
        limit: MAX_REVIEW_BODY,
      };
    },
  },
  {
    // The 422 fallback of a full review: every finding in the body, most of them left out.
    name: "review body with 100 findings, all in the body",
    render: (f) => {
      const fingerprints = Array.from({ length: MAX_FINDINGS }, (_, i) => i.toString(16).padStart(16, "0"));
      const plan: PublishPlan = {
        inline: [
          {
            path: "a.ts",
            line: 3,
            side: "RIGHT",
            body: "",
            finding: finding(f),
            fingerprint: fingerprints[0]!,
          },
        ],
        outside: fingerprints
          .slice(1)
          .map((fingerprint) => ({ finding: finding(f, null), reason: "no_line" as const, fingerprint })),
        belowThreshold: [],
        duplicates: [],
        dismissed: [],
        raised: new Set(),
        placed: [],
      };
      const review = { summary: f.summary, findings: [], notes: [f.note] };
      const markdown = renderReviewBody({
        review,
        plan,
        headSha: SHA,
        checkRunId: 7,
        repository: REPOSITORY,
        words: GITHUB_WORDS,
        allInBody: true,
        trailingMarkers: [REVIEWED],
      });
      // Findings left out from the end have no marker: expect those of the findings shown.
      const shown = fingerprints.filter((fp) => markdown.includes(fingerprintMarker(fp)));
      return {
        markdown,
        expectation: {
          linkPrefix: LINK_PREFIX,
          markers: [...shown.map(fingerprintMarker), reviewMarker(SHA, 7), REVIEWED],
        },
        limit: MAX_REVIEW_BODY,
      };
    },
  },
  ...(["summary", "text"] as const).map(
    (part): PublishRenderer => ({
      name: `check run ${part}`,
      render: (f) => {
        const output = renderCheckRunOutput({
          result: loopResult(f),
          words: GITHUB_WORDS,
          conclusion: f.tool,
          findingsBySeverity: { critical: 0, high: 1, medium: 0, low: 0, info: 0 },
          filesReviewed: 1,
          filesSkipped: 0,
          headSha: SHA,
          extraNote: f.note,
          // Titles on the ledger were written by the model on an earlier review.
          ledger: {
            fresh: 0,
            counts: { open: 1, fixed: 0, withdrawn: 0, dismissed: 1 },
            dismissedRepeats: 1,
            dismissals: [
              {
                path: f.path,
                line: 3,
                title: f.title,
                dismissal: { by: "octocat", at: null, how: "reaction" },
              },
            ],
          },
        });
        return { markdown: sent(output)[part] ?? "", expectation: none, limit: MAX_CHECK_RUN_FIELD };
      },
    }),
  ),
  {
    name: "check run skip summary",
    render: (f) => ({
      markdown: sent(renderSkipOutput(f.tool, f.note)).summary,
      expectation: none,
      limit: MAX_CHECK_RUN_FIELD,
    }),
  },
  {
    name: "check run config errors",
    render: (f) => {
      const errors = Array.from({ length: CONFIG_ERRORS }, () => ({ path: f.path, message: f.note }));
      return {
        markdown: sent(configErrorOutput(errors, GITHUB_WORDS)).summary,
        expectation: none,
        limit: MAX_CHECK_RUN_FIELD,
      };
    },
  },
  {
    name: "thread reply",
    render: (f) => ({
      markdown: renderThreadReply({
        reply: `${f.explanation}\n\n${f.evidence}\n\n${f.suggestion}`,
        status: "fixed",
        spend: { rounds: 2, toolCalls: 1 },
        answering: 4242,
        repository: REPOSITORY,
      }),
      expectation: { linkPrefix: LINK_PREFIX, markers: [replyMarker(4242), statusMarker("fixed", null)] },
      limit: 65536,
    }),
  },
  {
    name: "thread reply failure",
    render: (f) => ({
      markdown: renderReplyFailure({
        reason: "invalid_model_response",
        detail: f.note,
        answering: 4242,
        words: GITHUB_WORDS,
      }),
      expectation: { linkPrefix: null, markers: [replyMarker(4242)] },
      limit: 65536,
    }),
  },
  {
    name: "CLI markdown",
    render: (f) => ({
      markdown: renderCliMarkdown(loopResult(f), LOCAL_WORDS),
      expectation: none,
      limit: Number.POSITIVE_INFINITY,
    }),
  },
];
