// What the finding ledger adds to planning: 100 findings with explanations at the 4,000 characters
// the claim reads, planned against a ledger at its bound (500 findings, each with a full sketch),
// against the same plan with no ledger. Printed as a ratio of CPU time, in a fresh process.
// Run: node_modules/.bin/node bench/ledger-match.ts

import type { Finding } from "../src/domain/finding.ts";
import { GITHUB_WORDS } from "../src/forges/github/words.ts";
import { findingIdentity } from "../src/review/finding-identity.ts";
import type { LedgerEntry } from "../src/review/ledger.ts";
import { planReview } from "../src/review/plan-review.ts";

const LINES = 2_000;
const lines = Array.from({ length: LINES }, (_, i) => `  const value${i} = compute(${i});`);
const text = `${lines.join("\n")}\n`;
const patch = `@@ -0,0 +1,${LINES} @@\n${lines.map((line) => `+${line}`).join("\n")}`;
const words = (seed: number, n: number) =>
  Array.from({ length: n }, (_, i) => `word${(seed * 7919 + i) % 5000}`);
const findings: Finding[] = Array.from({ length: 100 }, (_, i) => ({
  severity: "high",
  title: words(i, 8).join(" "),
  explanation: words(i + 1000, 600)
    .join(" ")
    .slice(0, 4000),
  path: "big.ts",
  line: 1 + i * 10,
  end_line: 5 + i * 10,
  evidence: "",
  recommendation: "Fix it.",
}));
// Every entry on the same file, with a full sketch of other words: each finding is compared with all.
const ledger: LedgerEntry[] = Array.from({ length: 500 }, (_, i) => ({
  identity: findingIdentity({
    path: "big.ts",
    code: `other ${i}`,
    title: words(i + 9000, 8).join(" "),
    explanation: words(i + 20000, 600).join(" "),
  }),
  fingerprint: null,
  status: i % 2 === 0 ? "open" : "dismissed",
  title: "t",
  path: "big.ts",
  line: i,
  dismissal: null,
}));

function cpuMs(run: () => unknown): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const plan = (entries: LedgerEntry[]) => () =>
  planReview({
    findings,
    files: [{ filename: "big.ts", patch }],
    headTexts: new Map([["big.ts", text]]),
    minSeverity: "low",
    maxInline: 50,
    alreadyPosted: new Set(),
    repository: { owner: "acme", repo: "widgets", host: "github.com" },
    words: GITHUB_WORDS,
    ledger: entries,
  });

cpuMs(plan([])); // warm-up: both runs below find the code compiled
const without = cpuMs(plan([]));
const withLedger = cpuMs(plan(ledger));
console.log(
  `100 findings, ledger of ${ledger.length}: ${(withLedger / without).toFixed(2)}× the CPU of no ledger`,
);
console.log(`(no ledger ${without.toFixed(0)} ms, ledger ${withLedger.toFixed(0)} ms CPU)`);
