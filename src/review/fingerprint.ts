// A finding's identity across pushes: path + the code it points at + its title, each normalised.
// Line numbers are deliberately left out, so a finding that moved because of an unrelated edit
// above it is still recognised as already posted and not repeated.

import { createHash } from "node:crypto";
import { normaliseLine } from "../domain/code-quote.ts";

const MARKER = /<!-- loupe:fp=([0-9a-f]{16}) -->/g;

/** Code past this many UTF-16 units is identified by its ends and its length (see fingerprintCode). */
export const MAX_FINGERPRINT_CODE = 16 * 1024;

function normaliseCode(lines: readonly string[]): string {
  return lines
    .map(normaliseLine)
    .filter((line) => line !== "")
    .join("\n");
}

function normaliseTitle(title: string): string {
  return title.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** 16 hex digits (64 bits) of SHA-256: short enough for a hidden marker, far from collisions. */
export function fingerprintFinding(path: string, anchoredCode: readonly string[], title: string): string {
  return fingerprintCode(path, normaliseCode(anchoredCode), title);
}

/**
 * The fingerprint of code already normalised (file-code.ts). Code up to MAX_FINGERPRINT_CODE is
 * hashed whole; longer code (a finding over thousands of lines) by its first and last halves of
 * that and its length, so each finding costs a bounded hash however much of a file it spans.
 */
export function fingerprintCode(path: string, code: string, title: string): string {
  const material =
    code.length <= MAX_FINGERPRINT_CODE
      ? JSON.stringify([path, code, normaliseTitle(title)])
      : JSON.stringify([
          path,
          code.slice(0, MAX_FINGERPRINT_CODE / 2),
          code.slice(-MAX_FINGERPRINT_CODE / 2),
          code.length,
          normaliseTitle(title),
        ]);
  return createHash("sha256").update(material, "utf8").digest("hex").slice(0, 16);
}

export function fingerprintMarker(fingerprint: string): string {
  if (!/^[0-9a-f]{16}$/.test(fingerprint)) throw new TypeError("fingerprint must be 16 lowercase hex digits");
  return `<!-- loupe:fp=${fingerprint} -->`;
}

/** Fingerprints Loupe left in a comment or review body (model text can never contain one). */
export function extractFingerprints(body: string): Set<string> {
  const found = new Set<string>();
  for (const match of body.matchAll(MARKER)) found.add(match[1]!);
  return found;
}
