// How a change too large for one tool loop is split into passes: a pass lists at most as many
// files as the prompt can (LISTED_CHANGES) and at most so many bytes of diff as the model would be
// shown, so each loop sees a diff it can read within its share of the budget. A file weighs what
// the diff tool would show of it, after the tool's own limits: a file described as too large (or
// binary) weighs its one-line description, however many lines it changed. A directory's files
// stay together, because related code usually sits side by side and the model reviews it best in
// one look; a directory
// larger than a pass is cut, in name order, by size. Directories are then dealt largest first to
// the lightest pass with room (longest-processing-time first), which keeps passes within one
// directory's weight of each other. Pure and deterministic: the same files give the same passes.

import type { ChangedFile } from "../domain/changed-file.ts";
import { DEFAULT_TOOL_LIMITS } from "../tools/limits.ts";

export interface PassCapacity {
  /** Files one pass lists to the model. */
  readonly files: number;
  /** Bytes of diff (as the diff tool shows each file, fileWeight) one pass covers. */
  readonly bytes: number;
}

/** The most of one file one inspect_git_diff call shows (its max_bytes bound). */
export const MAX_SHOWN_BYTES = 128 * 1024;
/** What the diff tool shows for a file without hunks: its header and the line describing it. */
export const DESCRIBED_BYTES = 200;

/**
 * Whether the diff tool shows the file as a description rather than hunks: the host gave no patch
 * (binary, or over its limits), or the patch alone is larger than the tools read of one side, so
 * that side is too. A rename without changes has nothing to describe.
 */
export function isDescribed(file: ChangedFile): boolean {
  if (file.patch === null) return !(file.status === "renamed" && file.additions + file.deletions === 0);
  return file.patch.length > DEFAULT_TOOL_LIMITS.maxFileBytes;
}

/** What one file weighs in a pass: the bytes the model would be shown of it, at least 1. */
export function fileWeight(file: ChangedFile): number {
  if (file.patch === null || isDescribed(file)) return DESCRIBED_BYTES;
  return Math.max(1, Math.min(file.patch.length, MAX_SHOWN_BYTES));
}

/**
 * Whether a change needs passes: more files than one pass lists, or more shown diff than one pass
 * covers once its heaviest file is set apart — a file cannot be split, so a change whose bulk is
 * one file gains nothing from passes. A change one loop can review is never split.
 */
export function needsPasses(files: readonly ChangedFile[], capacity: PassCapacity): boolean {
  if (files.length > capacity.files) return true;
  let total = 0;
  let heaviest = 0;
  for (const file of files) {
    const weight = fileWeight(file);
    total += weight;
    heaviest = Math.max(heaviest, weight);
  }
  return total - heaviest > capacity.bytes;
}

interface Unit {
  readonly files: readonly ChangedFile[];
  readonly weight: number;
}

interface Group {
  files: ChangedFile[];
  weight: number;
}

const byName = (a: ChangedFile, b: ChangedFile): number =>
  a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0;

function directoryOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** The files in passes, each pass's files in name order, the passes in order of their first file. */
export function planPasses(files: readonly ChangedFile[], capacity: PassCapacity): ChangedFile[][] {
  if (files.length === 0) return [];
  const units = directoryUnits([...files].sort(byName), capacity);
  const total = units.reduce((sum, u) => sum + u.weight, 0);
  const wanted = Math.max(Math.ceil(files.length / capacity.files), Math.ceil(total / capacity.bytes), 1);
  const groups: Group[] = Array.from({ length: wanted }, () => ({ files: [], weight: 0 }));
  // Heaviest first; equal weights by name, so the deal never depends on the input's order.
  const ordered = [...units].sort((a, b) => b.weight - a.weight || byName(a.files[0]!, b.files[0]!));
  for (const unit of ordered) {
    const target = lightestWithRoom(groups, unit, capacity);
    if (target === null) groups.push({ files: [...unit.files], weight: unit.weight });
    else {
      target.files.push(...unit.files);
      target.weight += unit.weight;
    }
  }
  return groups
    .filter((g) => g.files.length > 0)
    .map((g) => g.files.sort(byName))
    .sort((a, b) => byName(a[0]!, b[0]!));
}

function lightestWithRoom(groups: readonly Group[], unit: Unit, capacity: PassCapacity): Group | null {
  let best: Group | null = null;
  for (const group of groups) {
    const fits =
      group.files.length === 0 ||
      (group.files.length + unit.files.length <= capacity.files &&
        group.weight + unit.weight <= capacity.bytes);
    if (fits && (best === null || group.weight < best.weight)) best = group;
  }
  return best;
}

/** One unit per directory; a directory over a pass's capacity is cut in name order by size. */
function directoryUnits(sorted: readonly ChangedFile[], capacity: PassCapacity): Unit[] {
  const byDirectory = new Map<string, ChangedFile[]>();
  for (const file of sorted) {
    const directory = directoryOf(file.filename);
    const list = byDirectory.get(directory);
    if (list === undefined) byDirectory.set(directory, [file]);
    else list.push(file);
  }
  const units: Unit[] = [];
  for (const list of byDirectory.values()) {
    let files: ChangedFile[] = [];
    let weight = 0;
    for (const file of list) {
      const w = fileWeight(file);
      if (files.length > 0 && (files.length + 1 > capacity.files || weight + w > capacity.bytes)) {
        units.push({ files, weight });
        files = [];
        weight = 0;
      }
      files.push(file);
      weight += w;
    }
    units.push({ files, weight });
  }
  return units;
}
