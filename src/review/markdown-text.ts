// Character-level helpers shared by the Markdown serializer and the renderers: invisible-character
// removal, marker-forgery breaking, and cutting text at code-point boundaries.

// Every default-ignorable code point (zero-width characters, variation selectors, Hangul fillers,
// U+180B–U+180F, U+17B4/5, tag characters and the reserved U+E0080–U+E0FFF…) and every format
// character (bidi controls, U+0600–U+0605, U+1BCA0–U+1BCA3, U+FFF9–U+FFFB…), and the line and
// paragraph separators U+2028/9: each can hide or reorder text a reviewer reads, or make two
// different strings look the same (`isAdmin\u180B = true` shows as `isAdmin = true`). The Unicode
// properties keep the list complete as Unicode grows, where a hand-kept list missed thousands.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2028\u2029]/gu;
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
