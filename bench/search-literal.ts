// search_repository's literal search against Buffer.indexOf and `git grep -F`, side by side on
// ordinary text and on the input that makes indexOf slow: megabyte files of one repeated
// character and a 512-character query that differs from them in its middle. Prints the median of
// three runs of each, in ms, and the ratios. The matcher alone (src/tools/literal-bytes.ts) and
// the whole tool call (reading, line numbers, budgets, slices) are both shown.
// Run: node_modules/.bin/node bench/search-literal.ts

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ByteLiteral } from "../src/tools/literal-bytes.ts";
import { createToolRegistry } from "../src/tools/registry.ts";
import { memoryRepository } from "../test/support/memory-repository.ts";
import { seededRandom } from "../test/support/seeded-random.ts";

const MIB = 1024 * 1024;
const FILES = 32;

function ordinaryText(): Buffer {
  const random = seededRandom(7);
  const words = ["const", "value", "return", "function", "if", "(", ")", "{", "}", ";", "\n", "  ", "export"];
  const parts: string[] = [];
  for (let length = 0; length < MIB; length += parts.at(-1)!.length) {
    parts.push(`${words[Math.floor(random() * words.length)]} `);
  }
  return Buffer.from(parts.join("").slice(0, MIB));
}

const inputs: Record<string, Buffer> = { ordinary: ordinaryText(), "one character": Buffer.alloc(MIB, "a") };
const queries: Record<string, string> = {
  "absent literal": "loupe-bench-literal-that-is-nowhere",
  "near miss, middle": `${"a".repeat(255)}b${"a".repeat(256)}`,
  "near miss, end": `${"a".repeat(511)}b`,
};

async function median(run: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[1]!;
}

/** A git repository of FILES copies of `content`, for git grep. */
function gitRepository(name: string, content: Buffer): string {
  const dir = path.join("bench/.work/search-literal", name.replace(/\W+/g, "-"));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (let n = 0; n < FILES; n++) fs.writeFileSync(path.join(dir, `f${n}.txt`), content);
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("-c", "user.name=bench", "-c", "user.email=bench@loupe.invalid", "commit", "-qm", "bench");
  return dir;
}

const rows: string[] = [];
for (const [inputName, content] of Object.entries(inputs)) {
  const dir = gitRepository(inputName, content);
  const tree = Object.fromEntries(Array.from({ length: FILES }, (_, n) => [`f${n}.txt`, content]));
  const registry = createToolRegistry(memoryRepository({ head: tree }));
  for (const [queryName, query] of Object.entries(queries)) {
    const needle = Buffer.from(query);
    const literal = new ByteLiteral(needle);
    const matcher = await median(() => {
      for (let n = 0; n < FILES; n++) literal.find(content, 0, content.length);
    });
    const indexOf = await median(() => {
      for (let n = 0; n < FILES; n++) content.indexOf(needle);
    });
    const tool = await median(() => registry.execute("search_repository", { query }));
    const grep = await median(() => {
      try {
        execFileSync("git", ["-C", dir, "grep", "-F", "-n", "-e", query, "HEAD"], { stdio: "ignore" });
      } catch {} // exit 1: no match
    });
    const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
    rows.push(
      `| ${inputName} | ${queryName} | ${matcher.toFixed(1)} | ${indexOf.toFixed(1)} | ${tool.toFixed(1)} | ${grep.toFixed(1)} | ${ratio(matcher, indexOf)} | ${ratio(tool, grep)} |`,
    );
  }
}
console.log(`${FILES} files of 1 MiB each; ms, median of 3`);
console.log(
  "| text | query | matcher | Buffer.indexOf | tool call | git grep -F | matcher / indexOf | tool / git grep |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
