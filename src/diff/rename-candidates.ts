// The files rename detection compares, each read at most once: its size from the object headers
// (enough to rule most pairs out, as git does) and its span hashes when a pair needs them.
// Reads are bounded per blob and in total, so a pull request of huge files cannot make the
// detection read without end; a file past either bound is paired only exactly.

import type { ObjectReader, TreeEntry } from "../workspace/types.ts";
import { type Spanned, similarityScore, sizesTooFar } from "./similarity.ts";
import { hashSpans, type SpanCounts } from "./span-hash.ts";

export interface Candidate {
  readonly entry: TreeEntry;
  /** The file name (after the last `/`): git's basename_same compares these. */
  readonly name: string;
  used: boolean;
  /** Known once asked for (every field is set at creation, so all candidates share one shape). */
  size: number | undefined;
  /** null: not compared by content (over a read bound). */
  spans: SpanCounts | null | undefined;
}

export function isRegular(entry: TreeEntry): boolean {
  return entry.mode === "file" || entry.mode === "executable";
}

/** How long the score matrix may hold the event loop before it lets other work run. */
const SLICE_MS = 20;

export function createCandidateLoader(
  objects: ObjectReader,
  bounds: { readonly maxBlobBytes: number; readonly readBudgetBytes: number },
) {
  let budget = bounds.readBudgetBytes;
  let sliceStart = performance.now();

  const sizeOf = async (candidate: Candidate): Promise<number> => {
    candidate.size ??= await objects.blobSize(candidate.entry.oid);
    return candidate.size;
  };

  const spansOf = async (candidate: Candidate): Promise<SpanCounts | null> => {
    if (candidate.spans !== undefined) return candidate.spans;
    const size = await sizeOf(candidate);
    if (size > bounds.maxBlobBytes || size > budget) {
      candidate.spans = null;
      return null;
    }
    budget -= size;
    const bytes = await objects.readBlobWithin(candidate.entry.oid, bounds.maxBlobBytes);
    candidate.spans = bytes === "too_large" ? null : hashSpans(bytes);
    return candidate.spans;
  };

  return {
    candidate: (entry: TreeEntry): Candidate => ({
      entry,
      name: entry.path.slice(entry.path.lastIndexOf("/") + 1),
      used: false,
      size: undefined,
      spans: undefined,
    }),

    async loadSizes(candidates: readonly Candidate[]): Promise<void> {
      for (const candidate of candidates) if (isRegular(candidate.entry)) await sizeOf(candidate);
    },

    /** The score when both span tables are at hand (the matrix's fast path), else undefined. */
    loadedScore(source: Candidate, destination: Candidate): number | undefined {
      if (source.spans === undefined || destination.spans === undefined) return undefined;
      if (source.spans === null || destination.spans === null) return 0;
      return similarityScore(source as Spanned, destination as Spanned);
    },

    /** git's estimate_similarity; 0 when the pair cannot reach `minScore` or was not read. */
    async score(source: Candidate, destination: Candidate, minScore: number): Promise<number> {
      if (!isRegular(source.entry) || !isRegular(destination.entry)) return 0;
      if (sizesTooFar(await sizeOf(source), await sizeOf(destination), minScore)) return 0;
      if ((await spansOf(source)) === null || (await spansOf(destination)) === null) return 0;
      return similarityScore(source as Spanned, destination as Spanned);
    },

    /** Yields to the event loop when the current slice of work has run long enough. */
    async breathe(): Promise<void> {
      if (performance.now() - sliceStart < SLICE_MS) return;
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    },
  };
}
