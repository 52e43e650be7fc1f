// Cutting untrusted text to a bound without splitting a character: by UTF-16 units on a code point
// (for text fields), or by UTF-8 bytes on a character (for previews measured in bytes).

const encoder = new TextEncoder();

/** The longest prefix of `text` of at most `maxUnits` UTF-16 units that ends on a code point. */
export function cutCodePoints(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  if (maxUnits <= 0) return "";
  const last = text.charCodeAt(maxUnits - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? maxUnits - 1 : maxUnits;
  return text.slice(0, end);
}

/** Cuts text to at most maxBytes of UTF-8 without splitting a character. */
export function previewText(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = encoder.encode(text);
  if (bytes.byteLength <= maxBytes) return { text, truncated: false };
  let end = maxBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), truncated: true };
}
