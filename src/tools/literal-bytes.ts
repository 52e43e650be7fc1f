// Finds a literal in bytes with work linear in the bytes scanned, whatever they hold.
// `Buffer.indexOf` is fast on ordinary text but not linear: on a megabyte of one repeated
// character and a 512-byte query that differs from it in the middle it takes about 200 ms
// (bench/search-literal.ts), and a model can ask for that on every file of a repository.
//
// Here the query's Knuth–Morris–Pratt automaton (one table row per matched length, one column per
// byte value) reads each byte once. Where nothing of the query is matched yet, the next place a
// match can start is found with `Buffer.indexOf` of the query's first PREFIX bytes: a pattern that
// short costs at most PREFIX comparisons per byte whatever the text (measured: 1–3 ms a megabyte
// on the worst text for it), and on ordinary text it skips ahead as indexOf does. The npm
// packages for this (Boyer–Moore–Horspool ones such as @hapi/nigel) share indexOf's worst case,
// and Aho–Corasick ones search strings, not bytes.

/** Counts the bytes examined, so tests can check the bound without timing anything. */
export interface ScanStats {
  steps: number;
}

const PREFIX = 32;

export class ByteLiteral {
  readonly length: number;
  private readonly prefix: Buffer;
  /** next state = table[state * 256 + byte]; state = how much of the query is matched. */
  private readonly table: Uint16Array;

  constructor(needle: Uint8Array) {
    if (needle.length === 0 || needle.length > 0xfffe)
      throw new RangeError("literal must have 1 to 65534 bytes");
    this.length = needle.length;
    this.prefix = Buffer.from(needle.subarray(0, Math.min(PREFIX, needle.length)));
    this.table = automaton(needle);
  }

  /**
   * Where the first occurrence starting at or after `from` and ending at or before `end` starts,
   * or -1. Examines the bytes of [from, end) once each (and none past `end`).
   */
  find(bytes: Buffer, from: number, end: number, stats?: ScanStats): number {
    const { length, prefix, table } = this;
    const view = end < bytes.length ? bytes.subarray(0, end) : bytes;
    let at = from;
    let state = 0;
    let steps = 0;
    let found = -1;
    while (at < view.length) {
      if (state === 0) {
        const start = view.indexOf(prefix, at);
        steps += (start < 0 ? view.length : start + prefix.length) - at;
        if (start < 0) break;
        at = start + prefix.length;
        state = prefix.length;
      } else {
        state = table[state * 256 + view[at]!]!;
        at++;
        steps++;
      }
      if (state === length) {
        found = at - length;
        break;
      }
    }
    if (stats !== undefined) stats.steps += steps;
    return found;
  }
}

/** The Knuth–Morris–Pratt automaton of `needle` as a (length + 1) × 256 table. */
function automaton(needle: Uint8Array): Uint16Array {
  const table = new Uint16Array((needle.length + 1) * 256);
  table[needle[0]!] = 1;
  // `fallback` is the state the automaton would be in had it read needle[1..j) from the start.
  let fallback = 0;
  for (let j = 1; j <= needle.length; j++) {
    table.copyWithin(j * 256, fallback * 256, fallback * 256 + 256);
    if (j < needle.length) {
      table[j * 256 + needle[j]!] = j + 1;
      fallback = table[fallback * 256 + needle[j]!]!;
    }
  }
  return table;
}
