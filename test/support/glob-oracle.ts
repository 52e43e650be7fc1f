// The meaning of a glob by definition, for differential tests of src/config/glob.ts: expand the
// braces into every alternative, split each into `/` segments, tokenize each segment (a `[` opens a
// class only with a `]` two or more characters on), and try each alternative on its own with
// plain backtracking. Exponential on purpose-built patterns: only for short generated ones.

type Token =
  | { readonly kind: "char"; readonly char: string }
  | { readonly kind: "any" }
  | { readonly kind: "star" }
  | { readonly kind: "class"; readonly negated: boolean; readonly ranges: readonly [string, string][] };

function expand(pattern: string): string[] {
  let forms = [""];
  let i = 0;
  while (i < pattern.length) {
    const open = pattern.indexOf("{", i);
    if (open === -1) {
      forms = forms.map((f) => f + pattern.slice(i));
      break;
    }
    const close = pattern.indexOf("}", open);
    const options = pattern.slice(open + 1, close).split(",");
    const prefix = pattern.slice(i, open);
    forms = forms.flatMap((f) => options.map((o) => f + prefix + o));
    i = close + 1;
  }
  return forms;
}

function tokenize(part: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < part.length; i++) {
    const c = part[i]!;
    const end = c === "[" ? part.indexOf("]", i + 2) : -1;
    if (c === "*") tokens.push({ kind: "star" });
    else if (c === "?") tokens.push({ kind: "any" });
    else if (end !== -1) {
      const body = part.slice(i + 1, end);
      const negated = body.startsWith("!") || body.startsWith("^");
      const set = negated ? body.slice(1) : body;
      const ranges: [string, string][] = [];
      for (let k = 0; k < set.length; k++) {
        if (set[k + 1] === "-" && k + 2 < set.length) {
          ranges.push([set[k]!, set[k + 2]!]);
          k += 2;
        } else ranges.push([set[k]!, set[k]!]);
      }
      tokens.push({ kind: "class", negated, ranges });
      i = end;
    } else tokens.push({ kind: "char", char: c });
  }
  return tokens;
}

function matchTokens(tokens: readonly Token[], text: string): boolean {
  if (tokens.length === 0) return text === "";
  const [token, ...rest] = tokens as [Token, ...Token[]];
  if (token.kind === "star") {
    for (let k = 0; k <= text.length; k++) if (matchTokens(rest, text.slice(k))) return true;
    return false;
  }
  if (text === "") return false;
  const c = text[0]!;
  const ok =
    token.kind === "any" ||
    (token.kind === "char"
      ? token.char === c
      : token.ranges.some(([low, high]) => c >= low && c <= high) !== token.negated);
  return ok && matchTokens(rest, text.slice(1));
}

function matchSegments(segments: readonly string[], parts: readonly string[]): boolean {
  if (segments.length === 0) return parts.length === 0;
  const [segment, ...rest] = segments as [string, ...string[]];
  if (segment === "**") {
    for (let k = 0; k <= parts.length; k++) if (matchSegments(rest, parts.slice(k))) return true;
    return false;
  }
  return parts.length > 0 && matchTokens(tokenize(segment), parts[0]!) && matchSegments(rest, parts.slice(1));
}

/** Whether `path` matches `pattern` (already checked: braces close and do not nest). */
export function globOracle(pattern: string, path: string): boolean {
  const parts = path.split("/");
  return expand(pattern).some((form) => matchSegments(form.split("/"), parts));
}
