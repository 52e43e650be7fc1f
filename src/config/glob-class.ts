// A `[…]` class of a glob: `[abc]`, `[a-z]`, and `[!a]`/`[^a]` for its complement. It matches one
// character of a path segment, so never `/`, negated or not. Its ranges are kept sorted and merged,
// so a long body of repeated characters costs one range, and equal classes have equal keys.

export interface CharClass {
  readonly negated: boolean;
  /** Inclusive [low, high] code point pairs, sorted, not overlapping. */
  readonly ranges: readonly number[];
}

const seen = new Set<number>();
let packed = new Float64Array(256);

/** The class of the code points between `[` and `]` (the first `length` of `body`). */
export function charClass(body: ArrayLike<number>, length = body.length): CharClass {
  const negated = body[0] === 0x21 || body[0] === 0x5e; // ! or ^
  if (packed.length < length) packed = new Float64Array(length);
  // Each range packed as low·2²¹ + high (code points are below 2²¹), so a numeric sort orders them;
  // repeats are dropped first, so a long body of one character sorts one value.
  seen.clear();
  let count = 0;
  for (let i = negated ? 1 : 0; i < length; i++) {
    const low = body[i]!;
    let high = low;
    if (body[i + 1] === 0x2d && i + 2 < length) {
      high = body[i + 2]!;
      i += 2;
      if (low > high) continue; // `z-a` holds nothing
    }
    const range = low * 0x200000 + high;
    if (seen.has(range)) continue;
    seen.add(range);
    packed[count++] = range;
  }
  const ranges: number[] = [];
  for (const range of packed.subarray(0, count).sort()) {
    const low = Math.floor(range / 0x200000);
    const high = range % 0x200000;
    const last = ranges.length - 1;
    if (last > 0 && low <= ranges[last]! + 1) ranges[last] = Math.max(ranges[last]!, high);
    else ranges.push(low, high);
  }
  return { negated, ranges };
}

/** Equal for classes that match the same characters the same way. */
export function classKey(charClass: CharClass): string {
  return `${charClass.negated ? "!" : ""}${charClass.ranges.join(",")}`;
}

export function inClass(charClass: CharClass, char: number): boolean {
  if (char === 0x2f) return false;
  const { ranges } = charClass;
  let inside = false;
  for (let i = 0; i < ranges.length && !inside; i += 2) inside = char >= ranges[i]! && char <= ranges[i + 1]!;
  return inside !== charClass.negated;
}
