// Checking and planning a final review of 100 findings that each span most of a 1,000,000-byte
// file of 25,000 lines (the file added by the pull request, so its patch is as large): the CPU time of
// the final review's checks against the head commit and of planReview, in a fresh process.
// Run: node_modules/.bin/node bench/plan-findings.ts

import type { Finding } from "../src/domain/finding.ts";
import { GITHUB_WORDS } from "../src/forges/github/words.ts";
import { headFileCheck, validateFinalReview } from "../src/llm/final-review.ts";
import { planReview } from "../src/review/plan-review.ts";
import { memoryRepository } from "../test/support/memory-repository.ts";

const LINES = 25_000;
const lines = Array.from({ length: LINES }, (_, i) => `  const value${i} = compute(${i});`.padEnd(39));
const text = `${lines.join("\n")}\n`;
const patch = `@@ -0,0 +1,${LINES} @@\n${lines.map((line) => `+${line}`).join("\n")}`;
const findings: Finding[] = Array.from({ length: 100 }, (_, i) => ({
  severity: "high",
  title: `Finding ${i}`,
  explanation: "Why.",
  path: "big.ts",
  line: 1 + i,
  end_line: LINES - i,
  evidence: "",
  recommendation: "Fix it.",
}));

async function cpuMs(run: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const view = memoryRepository({ head: { "big.ts": Buffer.from(text) } });
const answer = JSON.stringify({ summary: "s", findings, notes: [] });
let verdict: unknown;
const checkMs = await cpuMs(async () => {
  verdict = await validateFinalReview(answer, headFileCheck(view));
});
if ((verdict as { ok: boolean }).ok !== true) throw new Error(JSON.stringify(verdict));
const planMs = await cpuMs(() =>
  planReview({
    findings,
    files: [{ filename: "big.ts", patch }],
    headTexts: new Map([["big.ts", text]]),
    minSeverity: "low",
    maxInline: 50,
    alreadyPosted: new Set(),
    repository: { owner: "acme", repo: "widgets", host: "github.com" },
    words: GITHUB_WORDS,
  }),
);
console.log(`${Buffer.byteLength(text)} bytes, ${LINES} lines, 100 findings`);
console.log(`final review checks: ${checkMs.toFixed(0)} ms CPU; planReview: ${planMs.toFixed(0)} ms CPU`);
