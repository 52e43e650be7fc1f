// The core step of Myers' linear-space search (see line-diff.ts): the middle snake of one box of
// the edit graph, found by running the forward and backward searches until their paths meet, or
// until the cost bound, where the furthest-reaching point is taken instead.

export interface Box {
  readonly aLo: number;
  readonly aHi: number;
  readonly bLo: number;
  readonly bHi: number;
  /** Whether this box must be solved exactly (a split taken by the cost bound is not). */
  readonly exact: boolean;
}

interface Split {
  readonly x: number;
  readonly y: number;
  readonly exactBefore: boolean;
  readonly exactAfter: boolean;
}

/**
 * Runs the forward and the backward search at once until their paths meet (the middle snake of
 * a shortest edit script), or until the cost bound, where it returns the furthest point reached.
 * `forward[k]` is the furthest x reached on diagonal k, `backward[k]` the smallest.
 */
export function middleSnake(
  a: Int32Array,
  b: Int32Array,
  { aLo, aHi, bLo, bHi, exact }: Box,
  forward: Int32Array,
  backward: Int32Array,
  offset: number,
  costBound: number,
): Split {
  const kMin = aLo - bHi;
  const kMax = aHi - bLo;
  const forwardStart = aLo - bLo;
  const backwardStart = aHi - bHi;
  const odd = ((forwardStart - backwardStart) & 1) !== 0;
  let fLow = forwardStart;
  let fHigh = forwardStart;
  let bLow = backwardStart;
  let bHigh = backwardStart;
  forward[forwardStart + offset] = aLo;
  backward[backwardStart + offset] = aHi;

  for (let cost = 1; ; cost += 1) {
    // Widen the forward band by one diagonal each side, or narrow it at the box's edge; the
    // sentinel just outside the band can never win the comparison below.
    if (fLow > kMin) forward[--fLow - 1 + offset] = -1;
    else fLow += 1;
    if (fHigh < kMax) forward[++fHigh + 1 + offset] = -1;
    else fHigh -= 1;
    for (let k = fHigh; k >= fLow; k -= 2) {
      const fromBelow = forward[k - 1 + offset]!;
      const fromAbove = forward[k + 1 + offset]!;
      let x = fromBelow >= fromAbove ? fromBelow + 1 : fromAbove;
      let y = x - k;
      while (x < aHi && y < bHi && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      forward[k + offset] = x;
      if (odd && k >= bLow && k <= bHigh && backward[k + offset]! <= x) {
        return { x, y, exactBefore: true, exactAfter: true };
      }
    }

    if (bLow > kMin) backward[--bLow - 1 + offset] = 0x7fffffff;
    else bLow += 1;
    if (bHigh < kMax) backward[++bHigh + 1 + offset] = 0x7fffffff;
    else bHigh -= 1;
    for (let k = bHigh; k >= bLow; k -= 2) {
      const fromBelow = backward[k - 1 + offset]!;
      const fromAbove = backward[k + 1 + offset]!;
      let x = fromBelow < fromAbove ? fromBelow : fromAbove - 1;
      let y = x - k;
      while (x > aLo && y > bLo && a[x - 1] === b[y - 1]) {
        x -= 1;
        y -= 1;
      }
      backward[k + offset] = x;
      if (!odd && k >= fLow && k <= fHigh && x <= forward[k + offset]!) {
        return { x, y, exactBefore: true, exactAfter: true };
      }
    }

    if (!exact && cost >= costBound)
      return furthestReach(
        forward,
        backward,
        offset,
        { fLow, fHigh, bLow, bHigh },
        {
          aLo,
          aHi,
          bLo,
          bHi,
          exact,
        },
      );
  }
}

/** The point, forward or backward, that got furthest along its way (GNU diff's "too expensive"). */
function furthestReach(
  forward: Int32Array,
  backward: Int32Array,
  offset: number,
  band: { fLow: number; fHigh: number; bLow: number; bHigh: number },
  { aLo, aHi, bLo, bHi }: Box,
): Split {
  let forwardBest = -1;
  let forwardX = aLo;
  for (let k = band.fHigh; k >= band.fLow; k -= 2) {
    let x = Math.min(forward[k + offset]!, aHi);
    let y = x - k;
    if (y > bHi) {
      x = bHi + k;
      y = bHi;
    }
    if (x + y > forwardBest) {
      forwardBest = x + y;
      forwardX = x;
    }
  }
  let backwardBest = Number.MAX_SAFE_INTEGER;
  let backwardX = aHi;
  for (let k = band.bHigh; k >= band.bLow; k -= 2) {
    let x = Math.max(aLo, backward[k + offset]!);
    let y = x - k;
    if (y < bLo) {
      x = bLo + k;
      y = bLo;
    }
    if (x + y < backwardBest) {
      backwardBest = x + y;
      backwardX = x;
    }
  }
  return aHi + bHi - backwardBest < forwardBest - (aLo + bLo)
    ? { x: forwardX, y: forwardBest - forwardX, exactBefore: true, exactAfter: false }
    : { x: backwardX, y: backwardBest - backwardX, exactBefore: false, exactAfter: true };
}
