// Path globs for `.github/loupe.yml` with a bounded cost. A backtracking matcher (picomatch
// compiles to a RegExp) can take minutes on one path for a pattern like `**/*a*a*a*a*a*b`; this one
// simulates the pattern as an automaton, so matching is O(path length × pattern length) whatever
// both hold, and patterns are refused up front when they exceed the limits below.
//
// Syntax (picomatch's with `dot: true`, minus what it cannot bound): `*` (any characters but `/`,
// dotfiles included), `**` as a whole segment (any number of segments), `?`, `[abc]`, `[a-z]`,
// `[!a]`/`[^a]`, and `{a,b}` alternatives (not nested). Extglobs and `!` negation are refused.

export const GLOB_LIMITS = { length: 256, wildcards: 32, alternatives: 64 } as const;

type Token =
  | { readonly kind: "char"; readonly char: string }
  | { readonly kind: "any" } // ?
  | { readonly kind: "star" } // *
  | { readonly kind: "class"; readonly negated: boolean; readonly test: (char: string) => boolean };

/** A segment's two state vectors are allocated once, with it: matching is synchronous, never re-entered. */
type Segment =
  | { readonly kind: "globstar" }
  | {
      readonly kind: "tokens";
      readonly tokens: readonly Token[];
      readonly buffers: [Uint8Array, Uint8Array];
    };

export type GlobCheck =
  | { readonly ok: true; readonly patterns: readonly string[] }
  | { readonly ok: false; readonly message: string };

/** The pattern's brace-expanded forms, or why it is refused. */
export function checkGlob(pattern: string): GlobCheck {
  if (pattern.length > GLOB_LIMITS.length)
    return { ok: false, message: `must be at most ${GLOB_LIMITS.length} characters` };
  if (pattern.startsWith("!"))
    return { ok: false, message: "negation (!) is not supported: use paths.exclude" };
  if (/[@!+*?]\(/.test(pattern))
    return { ok: false, message: "extglobs like @(a|b) are not supported: use {a,b}" };
  const wildcards = (pattern.match(/[*?[]/g) ?? []).length;
  if (wildcards > GLOB_LIMITS.wildcards)
    return { ok: false, message: `must have at most ${GLOB_LIMITS.wildcards} wildcards (*, ?, [)` };
  const expanded = expandBraces(pattern);
  if (typeof expanded === "string") return { ok: false, message: expanded };
  return { ok: true, patterns: expanded };
}

function expandBraces(pattern: string): string[] | string {
  let forms = [""];
  let i = 0;
  while (i < pattern.length) {
    const open = pattern.indexOf("{", i);
    if (open === -1) {
      forms = forms.map((f) => f + pattern.slice(i));
      break;
    }
    const close = pattern.indexOf("}", open);
    if (close === -1) return "has a { without its }";
    const inside = pattern.slice(open + 1, close);
    if (inside.includes("{")) return "must not nest braces";
    const options = inside.split(",");
    if (forms.length * options.length > GLOB_LIMITS.alternatives)
      return `must expand to at most ${GLOB_LIMITS.alternatives} alternatives`;
    const prefix = pattern.slice(i, open);
    forms = forms.flatMap((f) => options.map((o) => f + prefix + o));
    i = close + 1;
  }
  if (forms.some((f) => f.includes("}"))) return "has a } without its {";
  return forms;
}

/** Counts automaton steps, so tests can check the bound without timing anything. */
export interface GlobStats {
  steps: number;
}

/** A matcher for already checked patterns (any one matching is a match). */
export function compileGlobs(patterns: readonly string[]): (path: string, stats?: GlobStats) => boolean {
  const compiled = patterns.flatMap((pattern) => {
    const check = checkGlob(pattern);
    if (!check.ok) throw new TypeError(`invalid glob ${JSON.stringify(pattern)}: ${check.message}`);
    return check.patterns.map(compileSegments);
  });
  return (path, stats = { steps: 0 }) => {
    const parts = path.split("/");
    return compiled.some((segments) => matchSegments(segments, parts, stats));
  };
}

function compileSegments(pattern: string): Segment[] {
  return pattern.split("/").map((part): Segment => {
    if (part === "**") return { kind: "globstar" };
    const tokens = tokenize(part);
    return {
      kind: "tokens",
      tokens,
      buffers: [new Uint8Array(tokens.length + 1), new Uint8Array(tokens.length + 1)],
    };
  });
}

function tokenize(part: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < part.length; i++) {
    const c = part[i]!;
    if (c === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" }); // ** inside a segment is *
    } else if (c === "?") tokens.push({ kind: "any" });
    else if (c === "[") {
      const end = part.indexOf("]", i + 2);
      if (end === -1) tokens.push({ kind: "char", char: c });
      else {
        tokens.push(characterClass(part.slice(i + 1, end)));
        i = end;
      }
    } else tokens.push({ kind: "char", char: c });
  }
  return tokens;
}

function characterClass(body: string): Token {
  const negated = body.startsWith("!") || body.startsWith("^");
  const set = negated ? body.slice(1) : body;
  const ranges: [string, string][] = [];
  for (let i = 0; i < set.length; i++) {
    if (set[i + 1] === "-" && i + 2 < set.length) {
      ranges.push([set[i]!, set[i + 2]!]);
      i += 2;
    } else ranges.push([set[i]!, set[i]!]);
  }
  return {
    kind: "class",
    negated,
    test: (char) => ranges.some(([low, high]) => char >= low && char <= high),
  };
}

/** Path segments against pattern segments: a set of reachable pattern positions, one step per path segment. */
function matchSegments(segments: readonly Segment[], parts: readonly string[], stats: GlobStats): boolean {
  let states = closure(new Set([0]), segments);
  for (const part of parts) {
    const next = new Set<number>();
    for (const j of states) {
      const segment = segments[j];
      if (segment === undefined) continue;
      stats.steps++;
      if (segment.kind === "globstar") next.add(j);
      else if (matchTokens(segment.tokens, segment.buffers, part, stats)) next.add(j + 1);
    }
    if (next.size === 0) return false;
    states = closure(next, segments);
  }
  return states.has(segments.length);
}

function closure(states: Set<number>, segments: readonly Segment[]): Set<number> {
  for (const j of states) if (segments[j]?.kind === "globstar") states.add(j + 1); // a Set iterates what is added
  return states;
}

/** One segment: the reachable token positions as a bit vector, one step per character (no backtracking). */
function matchTokens(
  tokens: readonly Token[],
  buffers: [Uint8Array, Uint8Array],
  text: string,
  stats: GlobStats,
): boolean {
  const n = tokens.length;
  let [current, next] = buffers;
  current.fill(0);
  current[0] = 1;
  closeStars(current, tokens);
  for (const char of text) {
    next.fill(0);
    let alive = false;
    for (let k = 0; k < n; k++) {
      if (current[k] === 0) continue;
      stats.steps++;
      const token = tokens[k]!;
      if (token.kind === "star") next[k] = 1;
      else if (
        token.kind === "any" ||
        (token.kind === "char" ? token.char === char : token.test(char) !== token.negated)
      )
        next[k + 1] = 1;
      else continue;
      alive = true;
    }
    if (!alive) return false;
    closeStars(next, tokens);
    [current, next] = [next, current];
  }
  return current[n] === 1;
}

/** A star may match nothing: whatever reaches it also reaches the token after it (one forward pass). */
function closeStars(states: Uint8Array, tokens: readonly Token[]): void {
  for (let k = 0; k < tokens.length; k++)
    if (states[k] === 1 && tokens[k]!.kind === "star") states[k + 1] = 1;
}
