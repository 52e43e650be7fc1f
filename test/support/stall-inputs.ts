// The hostile inputs that once held the event loop for seconds, built once for the tests that
// feed them to Loupe: in process (test/integration/app/app-*-cost.test.ts) and as a real server
// process (test/e2e/app/app-stall-inputs.test.ts).

import { GLOB_LIMITS } from "../../src/config/glob.ts";
import { finding } from "./chat-turns.ts";
import type { FixtureRepo } from "./git-fixture.ts";

// 1. Megabytes of one repeated character, and a search query that nearly matches everywhere.

const MIB = 1024 * 1024;
export const REPEATED_FILES = 48;
/** 512 characters, every one but the middle one an `a`: a naive search compares almost all of it at every offset. */
export const NEAR_MISS = `${"a".repeat(255)}b${"a".repeat(256)}`;

/** Writes REPEATED_FILES files of 1 MiB of `a` under data/ (a few KB once packed). */
export function writeRepeatedCharacterFiles(repo: FixtureRepo): void {
  const content = "a".repeat(MIB);
  for (let n = 0; n < REPEATED_FILES; n++) repo.write(`data/f${String(n).padStart(2, "0")}.txt`, content);
}

// 2. A final review of 100 findings that each span most of a one-megabyte file.

export const BIG_FILE_LINES = 25_000; // 40 bytes each: 1,000,000 bytes, under the read tool's 1 MiB
export const BIG_FILE = "src/big.ts";

export function megabyteFile(): string {
  const lines = Array.from({ length: BIG_FILE_LINES }, (_, i) =>
    `const v${String(i).padStart(6, "0")} = f(${i});`.padEnd(39),
  );
  return `${lines.join("\n")}\n`;
}

/** 100 valid findings on BIG_FILE, the i-th from line 1 + i to line BIG_FILE_LINES - i. */
export function spanningFindings(): Record<string, unknown>[] {
  return Array.from({ length: 100 }, (_, i) =>
    finding({
      path: BIG_FILE,
      line: 1 + i,
      end_line: BIG_FILE_LINES - i,
      severity: "high",
      title: `Finding ${i}`,
      evidence: `const v${String(i).padStart(6, "0")} = f(${i});`,
    }),
  );
}

// 3. A `.github/loupe.yml` at the glob limits against one name of 4,096 characters.

export const LONG_NAME = "a".repeat(4096);

/** 64 alternatives (`{,a}` six times), 25 stars, `a`s to the length limit, and a last letter a name of `a`s lacks. */
function pattern(n: number): string {
  let text = `**/${"{,a}".repeat(6)}`;
  for (let star = 0; star < 25; star++) text += "*a";
  return text.padEnd(GLOB_LIMITS.length - 1, "a") + String.fromCharCode(0x62 + (n % 24));
}

export function configAtTheLimits(): string {
  const list = (from: number) => Array.from({ length: 100 }, (_, n) => `    - '${pattern(from + n)}'`);
  // `**` keeps every file reviewed, so the long name goes through every later step too.
  return ["paths:", "  include:", "    - '**'", ...list(0).slice(1), "  exclude:", ...list(100), ""].join(
    "\n",
  );
}
