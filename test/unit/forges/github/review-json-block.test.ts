// The agents' document in the App's check run text: a hostile title cannot end the hidden comment
// (judged by cmark-gfm, GitHub's parser, and by Chromium's HTML parser on what cmark-gfm makes),
// and a document too long for GitHub's 65,535 characters loses whole findings, counted, never its
// validity.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Browser } from "playwright-core";
import { inertJson, REVIEW_JSON_MARKER, reviewJsonBlock } from "../../../../src/jobs/review-json-block.ts";
import type { ReviewDocument } from "../../../../src/pipeline/machine-review.ts";
import { launchChromium } from "../../../support/chromium.ts";
import { cmarkJudges, cmarkOracle } from "../../../support/gfm-oracle.ts";
import { readReviewJson, reviewDocumentProblems } from "../../../support/machine-checks.ts";

const HOSTILE = "--><script>alert(1)</script><!-- --!> <!--> -> ---> <img src=x onerror=alert(2)>";

function findingOf(index: number, overrides: Partial<ReviewDocument["findings"][number]> = {}) {
  return {
    id: index.toString(16).padStart(16, "0"),
    status: "new" as const,
    raised_again: false,
    posted: "inline" as const,
    severity: "high" as const,
    title: `Finding ${index}`,
    explanation: "It breaks.",
    recommendation: "Fix it.",
    location: { path: "src/a.ts", start_line: index + 1, end_line: index + 1 },
    verification: "not_verified" as const,
    unverified_because: null,
    instruction: `Fix the high finding at src/a.ts:${index + 1}: Finding ${index} Recommended: Fix it.`,
    ...overrides,
  };
}

function documentOf(findings: ReviewDocument["findings"]): ReviewDocument {
  return {
    schema_version: 1,
    tool: { name: "loupe", version: "9.9.9" },
    outcome: {
      kind: "reviewed",
      completed: true,
      termination_reason: "final_review",
      skip_reason: null,
      explanation: "The model returned its final review.",
      head_sha: "a".repeat(40),
      coverage: { files_reviewed: 1, files_left_out: 0, changed_files: null, not_reviewed: [] },
      cost: { source: "unpriced", dollars: null },
      tokens: 330,
      gate_failed: false,
    },
    settings: null,
    ledger: { new: findings.length, open: 0, fixed: 0, withdrawn: 0, dismissed: 0 },
    findings,
    resolved: [],
  } as ReviewDocument;
}

let browser: Browser;
beforeAll(async () => {
  cmarkJudges();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

describe("the hidden review-json block", () => {
  it("keeps a hostile title inside one HTML comment, and reads back as the same document", async () => {
    const block = reviewJsonBlock(
      documentOf([findingOf(0, { title: HOSTILE, explanation: HOSTILE })]),
      60_000,
    );
    const inner = block.slice(`<!-- ${REVIEW_JSON_MARKER} `.length, -" -->".length);
    for (const opener of ["<", ">", "--"]) expect(inner).not.toContain(opener);
    const read = readReviewJson(`| Round |\n|---:|\n| 1 |\n\n${block}`) as ReviewDocument;
    expect(read.findings[0]!.title).toBe(HOSTILE);
    expect(reviewDocumentProblems(read)).toEqual([]);

    // GitHub's parser passes it through as one HTML block, nothing rendered around it.
    const html = cmarkOracle(`Trace\n\n${block}\n\nAfter`);
    expect(html).toBe(`<p>Trace</p>\n${block}\n<p>After</p>\n`);
    // A browser's HTML parser makes one comment of it: no element, no text from the title.
    const page = await browser.newPage();
    await page.setContent(html);
    // A string, so the page's DOM types stay out of this file's TypeScript (no DOM library here).
    const seen = (await page.evaluate(`(() => {
      const comments = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_COMMENT);
      while (walker.nextNode()) comments.push(walker.currentNode.nodeValue);
      return { comments, text: document.body.textContent, elements: document.body.querySelectorAll("*").length };
    })()`)) as { comments: string[]; text: string; elements: number };
    await page.close();
    expect(seen.comments).toEqual([` ${REVIEW_JSON_MARKER} ${inner} `]);
    expect(seen.elements).toBe(2);
    expect(seen.text.replace(/\s+/g, " ").trim()).toBe("Trace After");
  });

  it("writes `--` and `>` as JSON escapes that parse back to the same text", () => {
    expect(inertJson({ t: "a-->b----c<d" })).toBe('{"t":"a-\\u002d\\u003eb-\\u002d-\\u002dc\\u003cd"}');
    expect(JSON.parse(inertJson({ t: "a-->b----c<d" }))).toEqual({ t: "a-->b----c<d" });
  });

  it("fits the limit by leaving out the least severe findings, counted, and stays valid", () => {
    const long = "x".repeat(8000);
    const findings = Array.from({ length: 40 }, (_, i) =>
      findingOf(i, { explanation: long, severity: i < 20 ? "high" : "low" }),
    );
    const limit = 64_000;
    const block = reviewJsonBlock(documentOf(findings), limit);
    expect(block.length).toBeLessThanOrEqual(limit);
    // Within one finding of the limit: it keeps as many as fit.
    expect(block.length).toBeGreaterThan(limit - 8200);
    const read = readReviewJson(block) as ReviewDocument & { omitted: Record<string, number> };
    expect(reviewDocumentProblems(read)).toEqual([]);
    const kept = read.findings.length;
    expect(kept).toBe(7);
    expect(read.findings.map((f) => f.title)).toEqual(findings.slice(0, kept).map((f) => f.title));
    expect(read.omitted).toEqual({ findings: 40 - kept, not_reviewed: 0, resolved: 0 });
  });

  it("counts nothing left out when the document fits", () => {
    const read = readReviewJson(reviewJsonBlock(documentOf([findingOf(1)]), 60_000)) as { omitted: object };
    expect(read.omitted).toEqual({ findings: 0, not_reviewed: 0, resolved: 0 });
  });
});
