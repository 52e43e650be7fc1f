// Character-level helpers shared by the Markdown serializer and the renderers: invisible-character
// removal, marker-forgery breaking, and cutting text at code-point boundaries.

// Zero-width (U+200B–U+200D, U+2060, U+FEFF), directional marks and controls (U+200E/F, U+061C,
// U+202A–U+202E, U+2066–U+2069), invisible operators (U+2061–U+2064), deprecated format
// characters (U+206A–U+206F), soft hyphen, combining grapheme joiner (U+034F), Mongolian vowel
// separator (U+180E), Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), interlinear annotation
// marks (U+FFF9–U+FFFB), line/paragraph separators (U+2028/9), variation selectors (U+FE00–U+FE0F,
// U+E0100–U+E01EF) and tag characters (U+E0000–U+E007F): each can hide or reorder text a
// reviewer reads, or make two different strings look the same.
const INVISIBLE =
  /\u034F|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]|[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}]/gu;
// C0/C1 controls other than tab and newline (CR is normalised to LF first).
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** Line endings to LF, lone surrogates to U+FFFD, invisible and control characters removed. */
export function stripInvisible(text: string): string {
  // Most text is printable ASCII: skip the Unicode-aware passes for it.
  if (!/[^\x20-\x7E\n]/.test(text)) return text;
  return text.toWellFormed().replace(/\r\n?/g, "\n").replace(INVISIBLE, "").replace(CONTROL, "");
}

/**
 * Loupe's hidden markers all start with "<!-- loupe". Inside code (where an HTML comment is
 * shown, not hidden) one is still present in the raw body that Loupe searches later, so it is
 * broken there too.
 */
export function breakMarkers(text: string): string {
  return text.replace(/<!--(?=\s*loupe)/gi, "<!- -");
}

/** The longest prefix of `text` of at most `maxUnits` UTF-16 units that ends on a code point. */
export function cutCodePoints(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  if (maxUnits <= 0) return "";
  const last = text.charCodeAt(maxUnits - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? maxUnits - 1 : maxUnits;
  return text.slice(0, end);
}
