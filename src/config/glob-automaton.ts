// Runs a glob automaton (glob-nfa.ts) over paths, remembering each set of alive states it meets
// and where each character took it (a deterministic automaton built as paths need it). A step
// that was taken before, on any path, costs one lookup; a new one costs the size of the set, once.
// Many patterns with stars keep many states alive at once (a long run of the same character does),
// but the sets repeat, so a 4,096-character name costs a few hundred new steps and lookups after.
// The memory held is bounded: past MAX_HELD_STATES remembered states it starts afresh.

import type { TimeSlices } from "../domain/time-slices.ts";
import { ACCEPTING, type GlobNfa, type GlobStats, REST, StateSet, step } from "./glob-nfa.ts";

/** State ids kept over all remembered sets (4 bytes each). */
const MAX_HELD_STATES = 1 << 20;

interface Known {
  readonly states: Int32Array;
  readonly accept: boolean;
  /** A `**` that ends a pattern is alive: whatever follows matches. */
  readonly rest: boolean;
  readonly next: Map<number, Known>;
}

export class GlobAutomaton {
  private readonly building: StateSet;
  private buckets = new Map<number, Known[]>();
  private held = 0;
  private start: Known | null = null;
  private readonly maxHeld: number;
  private readonly nfa: GlobNfa;

  /** `maxHeldStates` is for tests; a set larger than it is still remembered, alone. */
  constructor(nfa: GlobNfa, maxHeldStates = Math.max(MAX_HELD_STATES, 4 * nfa.kind.length)) {
    this.nfa = nfa;
    this.building = new StateSet(nfa);
    this.maxHeld = maxHeldStates;
  }

  matches(path: string, stats: GlobStats): boolean {
    let at = this.startSet();
    for (let i = 0; i < path.length && !at.rest && at.states.length > 0; i++) {
      const char = path.codePointAt(i)!;
      if (char > 0xffff) i++;
      at = this.advance(at, char, stats);
    }
    return at.rest || at.accept;
  }

  /** `matches`, letting other work run whenever a slice is used up (only new steps take time). */
  async matchesInSlices(path: string, slices: TimeSlices, stats: GlobStats): Promise<boolean> {
    let at = this.startSet();
    for (let i = 0; i < path.length && !at.rest && at.states.length > 0; i++) {
      const char = path.codePointAt(i)!;
      if (char > 0xffff) i++;
      const steps = stats.steps;
      at = this.advance(at, char, stats);
      if (stats.steps > steps + 1 && slices.due()) await slices.pause();
    }
    return at.rest || at.accept;
  }

  /** Where `char` takes the automaton from `at`: remembered, or stepped once and remembered. */
  private advance(at: Known, char: number, stats: GlobStats): Known {
    let to = at.next.get(char);
    if (to === undefined) {
      step(this.nfa, at.states, char, this.building, stats);
      to = this.remember();
      at.next.set(char, to);
    } else stats.steps++;
    return to;
  }

  private startSet(): Known {
    if (this.start !== null) return this.start;
    this.building.clear();
    for (const s of this.nfa.start) this.building.add(s);
    this.start = this.remember();
    return this.start;
  }

  /** The remembered set equal to the one just built, or that set, now remembered. */
  private remember(): Known {
    const { list } = this.building;
    let hash = list.length;
    for (const s of list) hash = (hash + Math.imul(s + 1, 0x9e3779b1)) | 0; // the same in any order
    for (const known of this.buckets.get(hash) ?? []) if (this.isBuilt(known.states)) return known;
    if (this.held + list.length > this.maxHeld) {
      // Paths under way keep the sets they hold; the next path starts from a start set anew.
      this.buckets = new Map();
      this.held = 0;
      this.start = null;
    }
    let rest = false;
    for (const s of list) rest ||= this.nfa.kind[s] === REST;
    const known: Known = {
      states: Int32Array.from(list),
      accept: this.building.has(ACCEPTING),
      rest,
      next: new Map(),
    };
    this.held += list.length;
    const bucket = this.buckets.get(hash);
    if (bucket === undefined) this.buckets.set(hash, [known]);
    else bucket.push(known);
    return known;
  }

  /** Whether `states` is the set just built. */
  private isBuilt(states: Int32Array): boolean {
    if (states.length !== this.building.list.length) return false;
    for (const s of states) if (!this.building.has(s)) return false;
    return true;
  }
}
