// The bounds that keep rename detection cheap whatever a pull request holds: a blob over the
// per-file bound, or past the detection's total read budget, is paired only exactly (by id),
// never read; within the bounds a renamed and edited file is paired as git pairs it.

import { describe, expect, it } from "@jest/globals";
import { detectRenames } from "../../../src/diff/detect-renames.ts";
import { diffSnapshots } from "../../../src/workspace/tree-diff.ts";
import { memoryRepository } from "../../support/memory-repository.ts";

const body = Array.from({ length: 200 }, (_, i) => `line ${i} of the moved file\n`).join("");
const repository = memoryRepository({
  mergeBase: { "old/moved.txt": body, "old/exact.txt": "same bytes\n" },
  head: {
    "new/renamed.txt": body.replace("line 7 of", "line seven of"),
    "new/exact-copy.txt": "same bytes\n",
  },
});
const raw = diffSnapshots(repository.mergeBase, repository.head);
const summary = (changes: Awaited<ReturnType<typeof detectRenames>>) =>
  changes.map((c) => [c.status, c.previousPath ?? null, c.path, c.similarity ?? null]);

describe("rename detection bounds", () => {
  it("pairs a renamed, edited file within the bounds", async () => {
    expect(summary(await detectRenames(raw, { objects: repository.objects }))).toEqual([
      ["renamed", "old/exact.txt", "new/exact-copy.txt", 100],
      ["renamed", "old/moved.txt", "new/renamed.txt", 99],
    ]);
  });

  it.each([
    ["a file over the per-blob bound", { maxBlobBytes: body.length - 1 }],
    ["a total read budget too small for the pair", { readBudgetBytes: body.length }],
  ])("leaves %s as a delete and an add, and still pairs exact renames", async (_what, bounds) => {
    const read: string[] = [];
    const objects = {
      ...repository.objects,
      readBlobWithin: (oid: string, max: number) => {
        read.push(oid);
        return repository.objects.readBlobWithin(oid, max);
      },
    };
    expect(summary(await detectRenames(raw, { objects, ...bounds }))).toEqual([
      ["renamed", "old/exact.txt", "new/exact-copy.txt", 100],
      ["added", null, "new/renamed.txt", null],
      ["deleted", null, "old/moved.txt", null],
    ]);
    // At most the smaller side was read before the bound stopped the pair.
    expect(read.length).toBeLessThanOrEqual(1);
  });
});
