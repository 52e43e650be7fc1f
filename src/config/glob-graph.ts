// One glob's `{a,b}` alternatives as a graph of its characters, without expanding them: every path
// from `start` to END spells one of the pattern's expansions, and the graph has one node per
// character of the pattern. Expanding first would copy the text around the braces once per
// alternative (64 alternatives of a 256-character pattern are 16 KiB of text to compile and to
// simulate); the graph keeps that text once, so the automaton built from it stays the pattern's size.

import { GLOB_LIMITS } from "./glob-limits.ts";

export interface GlobGraph {
  /** The code point of each node, in pattern order; END (= chars.length) is the pattern's end. */
  readonly chars: readonly number[];
  /** The nodes that may follow each node (END included). */
  readonly next: readonly (readonly number[])[];
  /** The nodes a pattern may start with (END for the empty pattern). */
  readonly start: readonly number[];
}

/** A run of text (one option) or `{…}` (its options); braces never nest. */
interface Item {
  readonly braces: boolean;
  readonly options: readonly string[];
}

const codePoints = (text: string): number[] => Array.from(text, (c) => c.codePointAt(0)!);

/** The pattern's items, or why its braces are refused (checked left to right, as written). */
function splitBraces(pattern: string): Item[] | string {
  const items: Item[] = [];
  const text = (from: number, to: number): Item => ({ braces: false, options: [pattern.slice(from, to)] });
  let forms = 1;
  let i = 0;
  while (i < pattern.length) {
    const open = pattern.indexOf("{", i);
    if (open === -1) {
      items.push(text(i, pattern.length));
      break;
    }
    const close = pattern.indexOf("}", open);
    if (close === -1) return "has a { without its }";
    const inside = pattern.slice(open + 1, close);
    if (inside.includes("{")) return "must not nest braces";
    const options = inside.split(",");
    if (forms * options.length > GLOB_LIMITS.alternatives)
      return `must expand to at most ${GLOB_LIMITS.alternatives} alternatives`;
    forms *= options.length;
    items.push(text(i, open));
    items.push({ braces: true, options });
    i = close + 1;
  }
  // Outside braces a `}` has no `{`; inside, the first `}` closes them.
  if (items.some((item) => !item.braces && item.options[0]!.includes("}"))) return "has a } without its {";
  return items;
}

/** Why the pattern's braces are refused, or null. */
export function braceError(pattern: string): string | null {
  const items = splitBraces(pattern);
  return typeof items === "string" ? items : null;
}

/** The graph of a pattern, or why its braces are refused. */
export function globGraph(pattern: string): GlobGraph | string {
  const items = splitBraces(pattern);
  if (typeof items === "string") return items;
  const chars: number[] = [];
  const next: number[][] = [];
  // The first node of each alternative (or -1 when it is empty), and the last nodes of each item.
  const firsts: number[][] = [];
  const lasts: number[][] = [];
  for (const item of items) {
    const first: number[] = [];
    const last: number[] = [];
    for (const option of item.options.map(codePoints)) {
      if (option.length === 0) {
        first.push(-1);
        continue;
      }
      first.push(chars.length);
      for (const [k, char] of option.entries()) {
        if (k > 0) next[chars.length - 1]!.push(chars.length);
        chars.push(char);
        next.push([]);
      }
      last.push(chars.length - 1);
    }
    firsts.push(first);
    lasts.push(last);
  }
  const END = chars.length;
  // entry[k]: the nodes that can come first from item k on (an empty alternative lets the next item
  // come first), computed from the end.
  const entry: number[][] = new Array(items.length + 1);
  entry[items.length] = [END];
  for (let k = items.length - 1; k >= 0; k--) {
    const nodes = new Set<number>();
    for (const first of firsts[k]!) {
      if (first >= 0) nodes.add(first);
      else for (const node of entry[k + 1]!) nodes.add(node);
    }
    entry[k] = [...nodes];
  }
  for (let k = 0; k < items.length; k++) for (const last of lasts[k]!) next[last]!.push(...entry[k + 1]!);
  return { chars, next, start: entry[0]! };
}
