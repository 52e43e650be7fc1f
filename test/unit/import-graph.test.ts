// Every module of src/ imports with an explicit relative `.ts` path, so the import graph can be read
// from the source text; a cycle in it (a job module importing the module that imports it) fails.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";

const SRC = path.resolve(import.meta.dirname, "..", "..", "src");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return full.endsWith(".ts") ? [full] : [];
  });
}

function importCycles(files: readonly string[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    const targets = [...text.matchAll(/from "(\.{1,2}\/[^"]+)"/g)].map((m) =>
      path.resolve(path.dirname(file), m[1]!),
    );
    graph.set(file, targets);
  }
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    state.set(file, "visiting");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "visiting") cycles.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles.map((cycle) => cycle.map((f) => path.relative(SRC, f)));
}

describe("the import graph of src/", () => {
  it("has no cycle", () => {
    expect(importCycles(sources(SRC))).toEqual([]);
  });

  it("would report one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-cycle-"));
    try {
      fs.writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b.ts";\n');
      fs.writeFileSync(path.join(dir, "b.ts"), 'import type { a } from "./a.ts";\n');
      expect(importCycles(sources(dir))).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
