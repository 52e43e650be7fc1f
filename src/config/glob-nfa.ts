// The automaton of a set of globs over the characters of a path, and one step of it: the states
// alive after a character, computed from the states alive before it (a Thompson automaton run as
// a set, so no choice is ever retried). Every pattern of the set lives in the same automaton, so a
// path's characters are read once for all of them.

import { type CharClass, inClass } from "./glob-class.ts";

/** One character (its code point in `arg`). */
export const CHAR = 0;
/** `?`: any character but `/`. */
export const ANY = 1;
/** `[…]` (the class at index `arg`). */
export const CLASS = 2;
/** `*`: stays on any character but `/`, and may match nothing. */
export const STAR = 3;
/**
 * A `**` segment before more of the pattern, once it has taken a character: it stays on any
 * character, and a `/` may also end it. (That it may take nothing is in the states that lead to
 * it: they lead past it too.)
 */
export const GLOBSTAR = 4;
/** A `**` segment that ends the pattern: whatever is left of the path. */
export const REST = 5;
/** The end of a pattern: the path matches when it is alive after the last character. */
export const ACCEPT = 6;

/** The one ACCEPT state of an automaton. */
export const ACCEPTING = 0;

const SLASH = 0x2f;

export interface GlobNfa {
  readonly kind: Uint8Array;
  readonly arg: Int32Array;
  readonly classes: readonly CharClass[];
  /** The states each state leads to are targets[targetStart[s] .. targetStart[s + 1]). */
  readonly targetStart: Int32Array;
  readonly targets: Int32Array;
  /** The states alive before the first character. */
  readonly start: Int32Array;
}

/** Counts work, so tests can check the bound without timing anything. */
export interface GlobStats {
  steps: number;
}

/**
 * A set of states under construction: `marks[s] === generation` when s is in it. A `*` (or a
 * final `**`) may match nothing more, so it brings the states after it along when it is added.
 */
export class StateSet {
  readonly marks: Int32Array;
  generation = 0;
  list: number[] = [];
  private readonly nfa: GlobNfa;

  constructor(nfa: GlobNfa) {
    this.nfa = nfa;
    this.marks = new Int32Array(nfa.kind.length);
  }

  clear(): void {
    this.generation++;
    this.list = [];
  }

  has(state: number): boolean {
    return this.marks[state] === this.generation;
  }

  add(state: number): void {
    if (this.marks[state] === this.generation) return;
    this.marks[state] = this.generation;
    this.list.push(state);
    const k = this.nfa.kind[state]!;
    if (k === STAR || k === REST) this.addTargets(state);
  }

  addTargets(state: number): void {
    const { targetStart, targets } = this.nfa;
    for (let t = targetStart[state]!; t < targetStart[state + 1]!; t++) this.add(targets[t]!);
  }
}

/** Fills `into` with the states alive after `char`, given those alive before it. */
export function step(
  nfa: GlobNfa,
  alive: ArrayLike<number>,
  char: number,
  into: StateSet,
  stats: GlobStats,
): void {
  const { kind, arg, classes } = nfa;
  into.clear();
  for (let i = 0; i < alive.length; i++) {
    const s = alive[i]!;
    stats.steps++;
    switch (kind[s]) {
      case CHAR:
        if (arg[s] === char) into.addTargets(s);
        break;
      case ANY:
        if (char !== SLASH) into.addTargets(s);
        break;
      case CLASS:
        if (inClass(classes[arg[s]!]!, char)) into.addTargets(s);
        break;
      case STAR:
        if (char !== SLASH) into.add(s);
        break;
      case GLOBSTAR:
        into.add(s);
        if (char === SLASH) into.addTargets(s);
        break;
      case REST:
        into.add(s);
        break;
    }
  }
}
