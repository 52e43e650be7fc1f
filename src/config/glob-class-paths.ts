// The classes one `[` of a glob's character graph opens. Which `]` closes it, and so what the
// class holds, can depend on which brace alternatives the path through the graph took (`[{a,b}]`
// is `[a]` or `[b]`), so every path from the `[` is followed to its first `]` two or more
// characters on, within the segment. There are at most as many paths as the pattern has
// expansions, and the distinct classes among them become one state each.

import { type CharClass, charClass, classKey } from "./glob-class.ts";
import type { GlobGraph } from "./glob-graph.ts";

const SLASH = 0x2f;
const CLOSE = 0x5d;

export interface OpenedClass {
  readonly charClass: CharClass;
  /** The node of the `]` that closes it. */
  readonly close: number;
}

/** The paths walked from a `[` as a tree of entries (node, entry before), in reused buffers. */
export class ClassWalk {
  private nodes: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private before: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private stack: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private text: Int32Array<ArrayBuffer> = new Int32Array(256);
  private size = 0;
  private depth = 0;

  /** Each distinct class the `[` at `open` opens on some path of `graph`. */
  classesFrom(graph: GlobGraph, open: number): OpenedClass[] {
    const { chars, next } = graph;
    const found = new Map<string, OpenedClass>();
    this.size = 0;
    this.depth = 0;
    for (const node of next[open]!) this.visit(node, -1);
    while (this.depth > 0) {
      const entry = this.stack[--this.depth]!;
      const node = this.nodes[entry]!;
      if (node === chars.length || chars[node] === SLASH) continue; // no `]` in this segment
      if (chars[node] === CLOSE && this.before[entry] !== -1) {
        const opened = charClass(this.text, this.bodyBefore(entry, chars));
        found.set(`${node}:${classKey(opened)}`, { charClass: opened, close: node });
        continue;
      }
      for (const after of next[node]!) this.visit(after, entry);
    }
    return [...found.values()];
  }

  private visit(node: number, from: number): void {
    if (this.size === this.nodes.length) {
      this.nodes = grow(this.nodes);
      this.before = grow(this.before);
      this.stack = grow(this.stack);
    }
    this.nodes[this.size] = node;
    this.before[this.size] = from;
    this.stack[this.depth++] = this.size++;
  }

  /** Puts the characters of the entries before `entry`, first to last, in `text`; returns how many. */
  private bodyBefore(entry: number, chars: readonly number[]): number {
    let length = 0;
    for (let e = this.before[entry]!; e !== -1; e = this.before[e]!) {
      if (length === this.text.length) this.text = grow(this.text);
      this.text[length++] = chars[this.nodes[e]!]!;
    }
    this.text.subarray(0, length).reverse();
    return length;
  }
}

function grow(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
