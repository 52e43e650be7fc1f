// The check of a refutation's quote against the head commit, as a ratio to reading the file with
// the read tool's rules alone (what the check must do anyway): a 1,000,000-byte file of 25,000
// lines, a 20-line quote near the middle, a finding without a line (the whole file is searched)
// and one with a line (only its window). The check runs once per refutation, so what matters is
// that it stays a small multiple of the read.
// Run: node_modules/.bin/node bench/verify-quote.ts

import type { Finding } from "../src/domain/finding.ts";
import { quotesInHead } from "../src/review/refutation-quote.ts";
import { readRepositoryTextFile } from "../src/tools/repository-file.ts";
import { memoryRepository } from "../test/support/memory-repository.ts";

const LINES = 25_000;
const lines = Array.from({ length: LINES }, (_, i) => `  const value${i} = compute(${i});`.padEnd(39));
const view = memoryRepository({ head: { "big.ts": Buffer.from(`${lines.join("\n")}\n`) } });
const quote = lines.slice(12_500, 12_520).join("\n");
const finding = (line: number | null): Finding => ({
  severity: "high",
  title: "t",
  explanation: "",
  path: "big.ts",
  line,
  evidence: "",
  recommendation: "",
});

async function cpuMs(times: number, run: () => Promise<unknown>): Promise<number> {
  await run();
  const before = process.cpuUsage();
  for (let i = 0; i < times; i++) await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / times;
}

const TIMES = 20;
const readMs = await cpuMs(TIMES, () => readRepositoryTextFile(view, "big.ts"));
const wholeMs = await cpuMs(TIMES, async () => {
  if (!(await quotesInHead(view, finding(null), quote)).refutes) throw new Error("quote not found");
});
const windowMs = await cpuMs(TIMES, async () => {
  if (!(await quotesInHead(view, finding(12_505), quote)).refutes) throw new Error("quote not found");
});
console.log(`${LINES} lines; a read ${readMs.toFixed(1)} ms CPU`);
console.log(`quote check, whole file: ${(wholeMs / readMs).toFixed(2)}× the read`);
console.log(`quote check, the finding's window: ${(windowMs / readMs).toFixed(2)}× the read`);
