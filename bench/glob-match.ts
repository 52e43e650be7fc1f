// The glob matcher of .github/loupe.yml (src/config/glob.ts) against picomatch, side by side:
// ordinary patterns on ordinary paths (the ratio that matters day to day), and patterns that make
// a backtracking matcher slow, on paths of growing length (picomatch is cut off after 2 s).
// Run: node_modules/.bin/node bench/glob-match.ts

import picomatch from "picomatch";
import { compileGlobs } from "../src/config/glob.ts";

function time(fn: () => void, rounds: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1e6 / rounds;
}

const ordinary = ["src/**", "**/*.min.js", "**/vendor/**", "**/*.{ts,tsx}", "docs/[a-m]*.md"];
const paths = Array.from(
  { length: 2000 },
  (_, i) => `src/module-${i % 50}/sub/file-${i}.${i % 3 ? "ts" : "js"}`,
);
const ours = compileGlobs(ordinary);
const theirs = picomatch(ordinary, { dot: true });
const a = time(() => {
  for (const p of paths) ours(p);
}, 20);
const b = time(() => {
  for (const p of paths) theirs(p);
}, 20);
console.log(
  `ordinary: 2000 paths × 5 patterns: glob.ts ${a.toFixed(2)} ms, picomatch ${b.toFixed(2)} ms, ratio ${(a / b).toFixed(2)}`,
);

const pattern = `**/${"*a".repeat(12)}*b`;
const slow = compileGlobs([pattern]);
const backtracking = picomatch(pattern, { dot: true });
for (const n of [16, 20, 24, 28, 2000]) {
  const path = `x/${"a".repeat(n)}`;
  const ms = time(() => slow(path), 5);
  let theirsMs = "skipped (over 2 s at a shorter path)";
  if (n <= 28) {
    const t = time(() => backtracking(path), 1);
    theirsMs = `${t.toFixed(1)} ms`;
  }
  console.log(`${pattern} on ${n + 2} chars: glob.ts ${ms.toFixed(3)} ms, picomatch ${theirsMs}`);
}

// A configuration at the glob limits: 100 patterns of 256 characters, each with 64 brace
// alternatives that all fit a run of `a`s (`{,a}` six times) and 25 stars, against one name of
// 4,096 `a`s: compiled, the first name (the automaton's sets are new), and the same name again.
const limits = Array.from({ length: 100 }, (_, n) => {
  let p = `**/${"{,a}".repeat(6)}`;
  for (let star = 0; star < 25; star++) p += "*a";
  return p.padEnd(255, "a") + String.fromCharCode(0x62 + (n % 24));
});
const name = "a".repeat(4096);
let compiled: (path: string) => boolean = () => false;
const compileMs = time(() => {
  compiled = compileGlobs(limits);
}, 1);
const firstMs = time(() => compiled(name), 1);
const againMs = time(() => compiled(name), 5);
console.log(
  `100 patterns × 64 alternatives, 4,096-character name: compile ${compileMs.toFixed(1)} ms, first name ${firstMs.toFixed(1)} ms, again ${againMs.toFixed(3)} ms`,
);
