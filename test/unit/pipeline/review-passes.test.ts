// The planner of passes for a change larger than one tool loop: every file in exactly one pass,
// a directory's files together, passes within one directory's weight of each other, a directory
// larger than a pass cut by size, and the same passes whatever order the files came in.

import { describe, expect, it } from "@jest/globals";
import type { ChangedFile } from "../../../src/domain/changed-file.ts";
import { PASS_CAPACITY } from "../../../src/pipeline/passes-step.ts";
import {
  DESCRIBED_BYTES,
  fileWeight,
  MAX_SHOWN_BYTES,
  needsPasses,
  planPasses,
} from "../../../src/pipeline/review-passes.ts";
import { seededRandom } from "../../support/seeded-random.ts";

/** A file whose diff the model is shown as `bytes` bytes (one byte a changed line, for short). */
function file(filename: string, bytes = 1): ChangedFile {
  return {
    filename,
    status: "modified",
    previousFilename: null,
    patch: "+".repeat(bytes),
    additions: bytes,
    deletions: 0,
  };
}

const directory = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf("/")));
const weight = (pass: readonly ChangedFile[]) => pass.reduce((sum, f) => sum + fileWeight(f), 0);

/** 2,000 files in 80 directories of uneven sizes, with uneven diffs. */
function largeChange(seed: number): ChangedFile[] {
  const random = seededRandom(seed);
  const files: ChangedFile[] = [];
  for (let d = 0; files.length < 2000; d++) {
    const count = 1 + Math.floor(random() * 50);
    for (let i = 0; i < count && files.length < 2000; i++) {
      files.push(file(`pkg${d}/sub/file${i}.ts`, 1 + Math.floor(random() * 40)));
    }
  }
  return files;
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("planPasses", () => {
  it("keeps a change that fits in one pass as one pass", () => {
    const files = [file("b/x.ts"), file("a/y.ts"), file("z.ts")];
    expect(planPasses(files, { files: 300, bytes: 10_000 }).map((p) => p.map((f) => f.filename))).toEqual([
      ["a/y.ts", "b/x.ts", "z.ts"],
    ]);
    expect(planPasses([], { files: 300, bytes: 10_000 })).toEqual([]);
  });

  it("covers every file once, within the capacity, with each directory in one pass", () => {
    const files = largeChange(7);
    const capacity = { files: 300, bytes: 10_000 };
    const passes = planPasses(files, capacity);
    expect(
      passes
        .flat()
        .map((f) => f.filename)
        .sort(),
    ).toEqual(files.map((f) => f.filename).sort());
    for (const pass of passes) {
      expect(pass.length).toBeLessThanOrEqual(capacity.files);
      expect(weight(pass)).toBeLessThanOrEqual(capacity.bytes);
    }
    const passOf = new Map<string, number>();
    passes.forEach((pass, i) => {
      for (const f of pass) {
        const seen = passOf.get(directory(f.filename));
        expect(seen ?? i).toBe(i);
        passOf.set(directory(f.filename), i);
      }
    });
  });

  it("balances passes by diff size: within the heaviest directory's weight of each other", () => {
    const files = largeChange(11);
    const passes = planPasses(files, { files: 300, bytes: 100_000 });
    expect(passes.length).toBe(7); // 2,000 files, 300 a pass
    const heaviestDirectory = Math.max(
      ...[...Map.groupBy(files, (f) => directory(f.filename)).values()].map(weight),
    );
    const weights = passes.map(weight);
    expect(Math.max(...weights) - Math.min(...weights)).toBeLessThanOrEqual(heaviestDirectory);
  });

  it("plans the same passes whatever order the files come in", () => {
    const files = largeChange(3);
    const capacity = { files: 300, bytes: 8_000 };
    const names = (passes: ChangedFile[][]) => passes.map((p) => p.map((f) => f.filename));
    const expected = names(planPasses(files, capacity));
    for (const seed of [1, 2, 3])
      expect(names(planPasses(shuffled(files, seed), capacity))).toEqual(expected);
  });

  it("cuts a single directory bigger than a pass by size, in name order", () => {
    const files = Array.from({ length: 10 }, (_, i) => file(`big/f${i}.ts`, 300));
    files.push(file("small/a.ts", 5));
    const passes = planPasses(files, { files: 300, bytes: 1000 });
    for (const pass of passes) expect(weight(pass)).toBeLessThanOrEqual(1000);
    const big = passes.map((p) => p.filter((f) => f.filename.startsWith("big/")).map((f) => f.filename));
    expect(big.flat().sort()).toEqual(
      files
        .slice(0, 10)
        .map((f) => f.filename)
        .sort(),
    );
    // Three files of 300 lines a pass at most: four pieces of the directory.
    expect(big.filter((p) => p.length > 0).length).toBe(4);
    // A piece is consecutive names: f0-f2, f3-f5, ... (not every third file).
    expect(big.find((p) => p.includes("big/f0.ts"))).toEqual(["big/f0.ts", "big/f1.ts", "big/f2.ts"]);
  });

  it("cuts a directory over the file count too, and gives a file over the line capacity a pass of its own", () => {
    const files = Array.from({ length: 700 }, (_, i) => file(`gen/f${String(i).padStart(3, "0")}.ts`));
    files.push(file("huge/one.ts", 50_000));
    const passes = planPasses(files, { files: 300, bytes: 10_000 });
    expect(passes.map((p) => p.length).sort((a, b) => a - b)).toEqual([1, 100, 300, 300]);
    expect(passes.find((p) => p.length === 1)?.[0]?.filename).toBe("huge/one.ts");
  });

  it("weighs a file by what the model is shown: a described file its description, a huge diff the tool's cut", () => {
    expect(fileWeight({ ...file("data/huge.csv", 5), patch: null, additions: 21_000 })).toBe(DESCRIBED_BYTES);
    expect(fileWeight(file("data/big.json", 500_000))).toBe(MAX_SHOWN_BYTES);
  });

  it("never splits 18 files two of which are large data files", () => {
    const ordinary = Array.from({ length: 16 }, (_, i) => file(`src/f${i}.ts`, 2_000));
    const data = [
      { ...file("data/large.csv", 1), patch: null, additions: 21_000 },
      { ...file("data/medium.json", 400_000), additions: 10_000 },
    ];
    expect(needsPasses([...ordinary, ...data], PASS_CAPACITY)).toBe(false);
  });

  it("needs passes past a pass's files, or its bytes once the one heaviest file is set apart", () => {
    const capacity = { files: 300, bytes: 1000 };
    const small = Array.from({ length: 10 }, (_, i) => file(`src/f${i}.ts`, 50));
    expect(needsPasses(small, capacity)).toBe(false);
    // One huge file among small ones: splitting cannot make that file smaller.
    expect(needsPasses([...small, file("data/huge.json", 90_000)], capacity)).toBe(false);
    expect(needsPasses([...small, ...small.map((f) => file(`lib/${f.filename}`, 60))], capacity)).toBe(true);
    expect(
      needsPasses(
        Array.from({ length: 301 }, (_, i) => file(`a/${i}.ts`)),
        capacity,
      ),
    ).toBe(true);
  });
});
