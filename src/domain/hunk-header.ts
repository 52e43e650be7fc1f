// A unified-diff hunk's `@@ -oldStart,oldLines +newStart,newLines @@` line, as numbers: the one
// shape both the hunks git would print (tools/hunks.ts) and the hunks of a host's patch
// (review/patch-hunks.ts) start from.

export interface HunkHeader {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
}
