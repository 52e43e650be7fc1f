// Model text is untrusted output. This turns it into Markdown that is safe to publish on GitHub
// (see docs/publishing.md, "Sanitisation"): prose is neutralised, code is kept as written
// (GitHub neither mentions nor links inside code), invisible characters go everywhere, and no
// text can forge one of Loupe's hidden "<!-- loupe" markers.

import { type Segment, splitSegments } from "./markdown-segments.ts";
import { breakMarkers, stripInvisible } from "./markdown-text.ts";
import { type RepositoryRef, sanitizeProse } from "./sanitize-prose.ts";

export interface SanitizeOptions extends RepositoryRef {
  /** Upper bound on the returned string's length, truncation marker included. */
  readonly maxLength: number;
}

export const TRUNCATION_MARKER = "\n\n*… (truncated by Loupe)*";

export function sanitizeMarkdown(text: string, options: SanitizeOptions): string {
  const segments = splitSegments(stripInvisible(text));
  const pieces = segments.map((segment) => renderSegment(segment, options));
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (total <= options.maxLength) return pieces.join("");
  return truncate(segments, pieces, options);
}

function renderSegment(segment: Segment, repository: RepositoryRef): string {
  if (segment.kind === "prose") return sanitizeProse(segment.text, repository);
  if (segment.kind === "code") return breakMarkers(segment.text);
  return renderFence(segment, segment.lines);
}

function renderFence(segment: Extract<Segment, { kind: "fence" }>, lines: readonly string[]): string {
  const fence = /^(`{3,}|~{3,})/.exec(segment.open)![1]!;
  // A model's own ```suggestion block would be one-click applicable outside Loupe's checks.
  const info = segment.open.slice(fence.length).replace(/^\s*suggestion\b/i, "");
  const close = segment.close ?? fence; // an unclosed fence would swallow everything after it
  return [fence + breakMarkers(info), ...lines.map(breakMarkers), close].join("\n");
}

/** Cuts whole segments; a prose segment is cut in its input and sanitised again, never mid-output. */
function truncate(segments: readonly Segment[], pieces: readonly string[], options: SanitizeOptions): string {
  const budget = options.maxLength - TRUNCATION_MARKER.length;
  if (budget <= 0) return TRUNCATION_MARKER.slice(0, Math.max(0, options.maxLength));
  let out = "";
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const piece = pieces[i]!;
    if (out.length + piece.length <= budget) {
      out += piece;
      continue;
    }
    const room = budget - out.length;
    if (segment.kind === "prose") out += fitProse(segment.text, room, options);
    else if (segment.kind === "fence") out += fitFence(segment, room);
    break;
  }
  return out + TRUNCATION_MARKER;
}

function fitProse(text: string, room: number, repository: RepositoryRef): string {
  let low = 0;
  let high = Math.min(text.length, room);
  let best = "";
  while (low <= high) {
    const mid = (low + high) >> 1;
    // Never split a surrogate pair: a lone half is not valid text.
    const end = /[\uD800-\uDBFF]/.test(text.charAt(mid - 1)) ? mid - 1 : mid;
    const candidate = sanitizeProse(text.slice(0, end), repository);
    if (candidate.length <= room) {
      best = candidate;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

function fitFence(segment: Extract<Segment, { kind: "fence" }>, room: number): string {
  let length = renderFence(segment, []).length;
  let count = 0;
  for (const line of segment.lines) {
    if (length + line.length + 1 > room) break;
    length += line.length + 1;
    count++;
  }
  return length <= room ? renderFence(segment, segment.lines.slice(0, count)) : "";
}
