// Compiles globs into one automaton (glob-nfa.ts) straight from their character graphs
// (glob-graph.ts), with the meaning each pattern's brace expansions have one by one: each
// expansion is split into `/` segments, a segment that is exactly `**` matches any number of
// path segments, and `[` opens a class only when a `]` follows it in the same segment (at least
// two characters on; else it is a plain `[`). Where that depends on which alternative a path of
// the graph took, the compiler carries what the expansion would know as a mode of its states:
//
// - SEGMENT: at the start of a segment, where `**` may be the whole segment;
// - AFTER_STARS: after a segment's leading `**` that the path does not follow with `/` or the end
//   (then the two are plain `*`);
// - OPEN_LITERAL / NO_CLOSE: after a plain `[`, which holds only if no `]` follows it two or
//   more characters on in the segment (a path of the graph that has one dies);
// - INSIDE: anywhere else.
//
// A configuration is a (graph node, mode) pair; each becomes the few states of the token at its
// node, so the automaton grows with the patterns' length, not with their expansions.

import type { TimeSlices } from "../domain/time-slices.ts";
import { ClassWalk, type OpenedClass } from "./glob-class-paths.ts";
import type { GlobGraph } from "./glob-graph.ts";
import { ANY, CHAR, CLASS, GLOBSTAR, type GlobNfa, REST, STAR } from "./glob-nfa.ts";
import { GlobParts } from "./glob-parts.ts";

const SEGMENT = 0;
const INSIDE = 1;
const AFTER_STARS = 2;
const OPEN_LITERAL = 3;
const NO_CLOSE = 4;
const MODES = 5;

const SLASH = 0x2f;
const ASTERISK = 0x2a;
const QUESTION = 0x3f;
const OPEN = 0x5b;
const CLOSE = 0x5d;

/** The configurations of one pattern, numbered as they are reached, and the states they make. */
class PatternCompiler {
  private readonly ids: Int32Array;
  private readonly work: number[] = [];
  private readonly globstarsToEnd: (boolean | undefined)[] = [];
  private readonly classes = new Map<number, OpenedClass[]>();
  private readonly graph: GlobGraph;
  private readonly out: GlobParts;
  private readonly walk: ClassWalk;

  constructor(graph: GlobGraph, out: GlobParts, walk: ClassWalk) {
    this.graph = graph;
    this.out = out;
    this.walk = walk;
    this.ids = new Int32Array((graph.chars.length + 1) * MODES).fill(-1);
  }

  /** Compiles the pattern; returns the configurations it starts in. */
  run(): number[] {
    const starts = this.graph.start.map((node) => this.config(node, SEGMENT));
    while (this.work.length > 0) {
      const id = this.work.pop()!;
      const node = this.work.pop()!;
      const mode = this.work.pop()!;
      this.out.beginConfig(id);
      this.expand(node, mode, id);
      this.out.endConfig(id);
    }
    return starts;
  }

  private config(node: number, mode: number): number {
    const END = this.graph.chars.length;
    const key = node === END ? END * MODES : node * MODES + mode;
    let id = this.ids[key]!;
    if (id < 0) {
      id = this.out.newConfig();
      this.ids[key] = id;
      this.work.push(mode, node, id);
    }
    return id;
  }

  /** A token state, leading to `nodes` in `mode`. */
  private token(kind: number, arg: number, nodes: readonly number[], mode: number): void {
    this.out.state(kind, arg);
    for (const node of nodes) this.out.target(this.config(node, mode));
  }

  private expand(node: number, mode: number, at: number): void {
    const { chars, next } = this.graph;
    const char = chars[node]!;
    const after = mode === OPEN_LITERAL || mode === NO_CLOSE ? NO_CLOSE : INSIDE;
    if (node === chars.length) this.out.accept(at);
    else if (mode === AFTER_STARS) {
      for (const n of next[node]!)
        if (n < chars.length && chars[n] !== SLASH) this.out.same(at, this.config(n, INSIDE));
    } else if (mode === NO_CLOSE && char === CLOSE) {
      // The `[` before was a class after all on this path: the class state covers it.
    } else if (char === SLASH) {
      this.token(CHAR, SLASH, next[node]!, SEGMENT);
      // `a/**` matches `a` itself: the segments of `**` may be none, and then so is the `/`.
      if (next[node]!.some((n) => this.onlyGlobstarsToEnd(n))) this.out.accept(at);
    } else if (char === ASTERISK && mode === SEGMENT) this.segmentStar(node, at);
    else if (char === ASTERISK) this.token(STAR, 0, next[node]!, after);
    else if (char === QUESTION) this.token(ANY, 0, next[node]!, after);
    else if (char === OPEN && (mode === SEGMENT || mode === INSIDE)) {
      for (const { charClass, close } of this.classesFrom(node))
        this.token(CLASS, this.out.addClass(charClass), next[close]!, INSIDE);
      this.token(CHAR, OPEN, next[node]!, OPEN_LITERAL);
    } else this.token(CHAR, char, next[node]!, after);
  }

  /** A `*` that starts a segment: `**` and then `/` or the end is a globstar, else a plain star. */
  private segmentStar(node: number, at: number): void {
    const { chars, next } = this.graph;
    const isStar = (n: number) => n < chars.length && chars[n] === ASTERISK;
    this.out.state(STAR, 0);
    for (const n of next[node]!) this.out.target(this.config(n, isStar(n) ? AFTER_STARS : INSIDE));
    const more: number[] = [];
    let rest = false;
    for (const second of next[node]!.filter(isStar)) {
      for (const n of next[second]!) {
        if (n === chars.length) rest = true;
        else if (chars[n] === SLASH) more.push(...next[n]!);
      }
    }
    if (more.length > 0) {
      this.token(GLOBSTAR, 0, more, SEGMENT);
      for (const n of more) this.out.same(at, this.config(n, SEGMENT)); // no segments at all
    }
    if (rest) this.token(REST, 0, [chars.length], SEGMENT);
  }

  /** Whether the graph can go from `node` through `**` segments only to the end (`**`, `**\/**`…). */
  private onlyGlobstarsToEnd(node: number): boolean {
    const { chars, next } = this.graph;
    const known = this.globstarsToEnd[node];
    if (known !== undefined) return known;
    const isStar = (n: number) => n < chars.length && chars[n] === ASTERISK;
    const result =
      isStar(node) &&
      next[node]!.some(
        (second) =>
          isStar(second) &&
          next[second]!.some(
            (n) =>
              n === chars.length ||
              (chars[n] === SLASH && next[n]!.some((later) => this.onlyGlobstarsToEnd(later))),
          ),
      );
    this.globstarsToEnd[node] = result;
    return result;
  }

  private classesFrom(open: number): OpenedClass[] {
    let opened = this.classes.get(open);
    if (opened === undefined) {
      opened = this.walk.classesFrom(this.graph, open);
      this.classes.set(open, opened);
    }
    return opened;
  }
}

/** One automaton for all the graphs: a path matches it when it matches any of them. */
export function compileGraphs(graphs: readonly GlobGraph[]): GlobNfa {
  const parts = new GlobParts();
  const walk = new ClassWalk();
  const starts = graphs.flatMap((graph) => new PatternCompiler(graph, parts, walk).run());
  return parts.automaton(starts);
}

/** `compileGraphs` for patterns read one by one, letting other work run between slices. */
export async function compileInSlices(
  patterns: readonly string[],
  graphOf: (pattern: string) => GlobGraph,
  slices: TimeSlices,
): Promise<GlobNfa> {
  const parts = new GlobParts();
  const walk = new ClassWalk();
  const starts: number[] = [];
  for (const pattern of patterns) {
    starts.push(...new PatternCompiler(graphOf(pattern), parts, walk).run());
    await slices.pause();
  }
  return parts.automaton(starts);
}
