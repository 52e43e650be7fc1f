// A finding's identity in the ledger, which must survive the model rewording it and the code
// moving: the code it points at (path + normalised code, line numbers left out, the same
// normalisation as fingerprints) and its claim, kept as a bottom-k sketch of the content words of
// its title and explanation. Two findings are the same when they point at the same code and their
// claims overlap enough (token-set Jaccard): a reworded title stays the same finding, another
// problem on the same lines does not. Only hex digits reach the hidden marker, never model text.

import { createHash } from "node:crypto";
import { fingerprintCode } from "./fingerprint.ts";

export interface FindingIdentity {
  /** 16 hex digits over the path and the normalised code (fingerprintCode with no title). */
  readonly code: string;
  /** 8 hex digits over the path alone: a dismissed finding raised again on changed code. */
  readonly place: string;
  /** Bottom-k sketch of the claim's words: sorted 6-hex-digit hashes, at most CLAIM_SKETCH. */
  readonly claim: readonly string[];
}

export const CLAIM_SKETCH = 24;
/** The claims are the same when this much of their words is shared (on the same code or not). */
export const SAME_CLAIM = 0.3;

const STOP_WORDS = new Set(
  (
    "a an and are as at be but by can could do does for from has have here if in into is it its may " +
    "might not of on or should so that the their then there these this those to was were when which " +
    "while will with would without also than been being only any all more most no nor other such"
  ).split(" "),
);

const hex = (text: string, digits: number) =>
  createHash("sha256").update(text, "utf8").digest("hex").slice(0, digits);

/** A word without its common English endings, so "checks", "checked" and "checking" meet. */
function stem(word: string): string {
  for (const ending of ["ing", "ed", "es", "s"]) {
    if (word.length > ending.length + 3 && word.endsWith(ending)) return word.slice(0, -ending.length);
  }
  return word;
}

/** The content words of a claim: NFKC, lower case, letters and digits, no stop words, stemmed. */
export function claimWords(title: string, explanation: string): Set<string> {
  const words = new Set<string>();
  const text = `${title}\n${explanation.slice(0, 4000)}`.normalize("NFKC").toLowerCase();
  for (const match of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    words.add(stem(word));
  }
  return words;
}

export function claimSketch(words: ReadonlySet<string>): string[] {
  return [...new Set([...words].map((word) => hex(word, 6)))].sort().slice(0, CLAIM_SKETCH);
}

export function findingIdentity(input: {
  readonly path: string;
  /** The anchored code, normalised as file-code.ts reads it ("" when the finding has no line). */
  readonly code: string;
  readonly title: string;
  readonly explanation: string;
}): FindingIdentity {
  return {
    code: fingerprintCode(input.path, input.code, ""),
    place: hex(input.path, 8),
    claim: claimSketch(claimWords(input.title, input.explanation)),
  };
}

/**
 * The bottom-k estimate of the Jaccard index of the two word sets: of the k smallest hashes of
 * the union, the share present in both sketches. Exact when the union has at most k words.
 */
export function claimSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const inA = new Set(a);
  const inB = new Set(b);
  const union = [...new Set([...a, ...b])].sort().slice(0, CLAIM_SKETCH);
  const both = union.filter((h) => inA.has(h) && inB.has(h)).length;
  return both / union.length;
}

export function sameFinding(a: FindingIdentity, b: FindingIdentity): boolean {
  return a.code === b.code && claimSimilarity(a.claim, b.claim) >= SAME_CLAIM;
}

/** The same claim in the same file, on code that is no longer the same. */
export function sameClaimElsewhere(a: FindingIdentity, b: FindingIdentity): boolean {
  return a.place === b.place && a.code !== b.code && claimSimilarity(a.claim, b.claim) >= SAME_CLAIM;
}

const MARKER = new RegExp(
  `<!-- loupe:finding code=([0-9a-f]{16}) place=([0-9a-f]{8}) claim=((?:[0-9a-f]{6}(?:,[0-9a-f]{6}){0,${CLAIM_SKETCH - 1}})?) -->`,
  "g",
);

export function identityMarker(identity: FindingIdentity): string {
  const ok =
    /^[0-9a-f]{16}$/.test(identity.code) &&
    /^[0-9a-f]{8}$/.test(identity.place) &&
    identity.claim.length <= CLAIM_SKETCH &&
    identity.claim.every((h) => /^[0-9a-f]{6}$/.test(h));
  if (!ok) throw new TypeError("a finding identity is hex digits only");
  return `<!-- loupe:finding code=${identity.code} place=${identity.place} claim=${identity.claim.join(",")} -->`;
}

/** The identities in one of Loupe's own texts; a malformed marker matches nothing. At most `max`. */
export function extractIdentities(body: string, max = 200): FindingIdentity[] {
  const found: FindingIdentity[] = [];
  for (const match of body.matchAll(MARKER)) {
    if (found.length >= max) break;
    found.push({ code: match[1]!, place: match[2]!, claim: match[3] === "" ? [] : match[3]!.split(",") });
  }
  return found;
}
