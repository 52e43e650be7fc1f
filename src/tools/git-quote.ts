// git's path quoting in diff headers (core.quotePath=true, the default): a path with control
// characters, `"`, `\` or any byte >= 0x80 is written C-style in double quotes, bytes in octal.

const NAMED = new Map<number, string>([
  [0x07, "\\a"],
  [0x08, "\\b"],
  [0x09, "\\t"],
  [0x0a, "\\n"],
  [0x0b, "\\v"],
  [0x0c, "\\f"],
  [0x0d, "\\r"],
  [0x22, '\\"'],
  [0x5c, "\\\\"],
]);

function needsQuote(byte: number): boolean {
  return byte < 0x20 || byte === 0x22 || byte === 0x5c || byte >= 0x7f;
}

/** `prefix + path` as git prints it in `diff --git`, `---`/`+++` and `rename from/to` lines. */
export function quoteGitPath(prefix: string, path: string): string {
  const bytes = Buffer.from(prefix + path, "utf8");
  if (!bytes.some(needsQuote)) return prefix + path;
  let out = '"';
  for (const byte of bytes) {
    if (!needsQuote(byte)) out += String.fromCharCode(byte);
    else out += NAMED.get(byte) ?? `\\${byte.toString(8).padStart(3, "0")}`;
  }
  return `${out}"`;
}
