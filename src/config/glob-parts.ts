// The parts of a glob automaton while glob-compile.ts builds it, in flat arrays (a set of a
// hundred 256-character patterns makes tens of thousands of states): the states, the
// configurations each state leads to, and, per configuration, the states it starts with. Once
// every pattern is compiled, each state's configurations are replaced by their states.

import type { CharClass } from "./glob-class.ts";
import { ACCEPT, ACCEPTING, type GlobNfa } from "./glob-nfa.ts";

export class GlobParts {
  private readonly kind: number[] = [ACCEPT];
  private readonly arg: number[] = [0];
  /** The configurations state s leads to: targetConfigs[targetFrom[s] .. targetFrom[s + 1]). */
  private readonly targetFrom: number[] = [0, 0];
  private readonly targetConfigs: number[] = [];
  private readonly classes: CharClass[] = [];
  /** The token states of configuration c: ownStart[c] .. ownEnd[c] (made in one go). */
  private readonly ownStart: number[] = [];
  private readonly ownEnd: number[] = [];
  private readonly accepts: boolean[] = [];
  /** Configurations a configuration stands for without reading a character (few have any). */
  private readonly sameAs = new Map<number, number[]>();

  newConfig(): number {
    this.ownStart.push(0);
    this.ownEnd.push(0);
    this.accepts.push(false);
    return this.accepts.length - 1;
  }

  beginConfig(config: number): void {
    this.ownStart[config] = this.kind.length;
  }

  endConfig(config: number): void {
    this.ownEnd[config] = this.kind.length;
  }

  /** A new state of the configuration being compiled; its targets follow with `target`. */
  state(kind: number, arg: number): void {
    this.kind.push(kind);
    this.arg.push(arg);
    this.targetFrom.push(this.targetConfigs.length);
  }

  target(config: number): void {
    this.targetConfigs.push(config);
    this.targetFrom[this.kind.length] = this.targetConfigs.length;
  }

  accept(config: number): void {
    this.accepts[config] = true;
  }

  same(config: number, other: number): void {
    const list = this.sameAs.get(config);
    if (list === undefined) this.sameAs.set(config, [other]);
    else list.push(other);
  }

  addClass(charClass: CharClass): number {
    return this.classes.push(charClass) - 1;
  }

  /** The automaton, starting in the states of `starts`. */
  automaton(starts: readonly number[]): GlobNfa {
    const count = this.kind.length;
    const targets = new StateList(count);
    const targetStart = new Int32Array(count + 1);
    for (let s = 0; s < count; s++) {
      targetStart[s] = targets.list.length;
      targets.generation++;
      for (let t = this.targetFrom[s]!; t < this.targetFrom[s + 1]!; t++)
        this.addEntry(targets, this.targetConfigs[t]!);
    }
    targetStart[count] = targets.list.length;
    targets.generation++;
    for (const config of starts) this.addEntry(targets, config);
    return {
      kind: Uint8Array.from(this.kind),
      arg: Int32Array.from(this.arg),
      classes: this.classes,
      targetStart,
      targets: Int32Array.from(targets.list.slice(0, targetStart[count])),
      start: Int32Array.from(targets.list.slice(targetStart[count])),
    };
  }

  /** Adds the states `config` stands for: ACCEPT if it ends the pattern, its own, those it equals. */
  private addEntry(into: StateList, config: number): void {
    if (this.accepts[config]) into.push(ACCEPTING);
    for (let s = this.ownStart[config]!; s < this.ownEnd[config]!; s++) into.push(s);
    const others = this.sameAs.get(config);
    if (others !== undefined) for (const other of others) this.addEntry(into, other);
  }
}

/** A list that takes each state once per generation. */
class StateList {
  readonly list: number[] = [];
  generation = 0;
  private readonly marks: Int32Array;

  constructor(count: number) {
    this.marks = new Int32Array(count);
  }

  push(state: number): void {
    if (this.marks[state] === this.generation) return;
    this.marks[state] = this.generation;
    this.list.push(state);
  }
}
