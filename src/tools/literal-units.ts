// Finds a literal in a string by UTF-16 code units with work linear in the string: the search for
// queries that hold a lone surrogate, which have no UTF-8 form to look for in a file's bytes (they
// match half of a surrogate pair in the decoded text, as String.prototype.indexOf does).
// indexOf itself is not linear on hostile text (see literal-bytes.ts); Knuth–Morris–Pratt is.

import type { ScanStats } from "./literal-bytes.ts";

export class UnitLiteral {
  private readonly needle: string;
  /** failure[j]: the longest proper border of needle[0, j). */
  private readonly failure: Int32Array;

  constructor(needle: string) {
    if (needle.length === 0) throw new RangeError("literal must not be empty");
    this.needle = needle;
    this.failure = new Int32Array(needle.length + 1);
    this.failure[0] = -1;
    let border = -1;
    for (let j = 0; j < needle.length; j++) {
      while (border >= 0 && needle.charCodeAt(border) !== needle.charCodeAt(j))
        border = this.failure[border]!;
      this.failure[j + 1] = ++border;
    }
  }

  /** Where the first occurrence in `text` starts, or -1 (at most two comparisons per code unit). */
  indexIn(text: string, stats?: ScanStats): number {
    const { needle, failure } = this;
    let matched = 0;
    let steps = 0;
    for (let at = 0; at < text.length; at++) {
      const unit = text.charCodeAt(at);
      while (matched >= 0 && needle.charCodeAt(matched) !== unit) {
        matched = failure[matched]!;
        steps++;
      }
      matched++;
      steps++;
      if (matched === needle.length) {
        if (stats !== undefined) stats.steps += steps;
        return at - needle.length + 1;
      }
    }
    if (stats !== undefined) stats.steps += steps;
    return -1;
  }
}
