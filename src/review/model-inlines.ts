// The inline half of reading model text, in one linear pass: backslash escapes, code spans, bold,
// links and images, autolinks and bare URLs. A link survives only into this repository
// (repository-link.ts); any other link or image becomes its text with the URL as code.

import { backtickRunsIn } from "./code-span.ts";
import { code, type Inline, plainText, strong, text } from "./markdown-tree.ts";
import { type RepositoryRef, repositoryLink } from "./repository-link.ts";

export interface InlineContext {
  readonly repository: RepositoryRef | null;
  /** Link reference definitions, by normalised label. */
  readonly definitions: ReadonlyMap<string, string>;
}

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+)>/y;
const BARE_URL = /https?:\/\/[^\s<>()[\]`]+/y;
// A destination with no spaces (or <…>), then an optional title, on the same paragraph.
const DESTINATION = /\(\s*(?:<([^<>\n]*)>|([^\s()<>]+))(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/y;
const REFERENCE = /\[([^\]\n]{1,999})\]/y;

/** One of Loupe's own sentences, which may hold `code` spans: read like model text, no links. */
export function sentenceInlines(sentence: string): Inline[] {
  return modelInlines(sentence, { repository: null, definitions: new Map() });
}

export function modelInlines(source: string, context: InlineContext, depth = 0): Inline[] {
  const out: Inline[] = [];
  const ticks = backtickRuns(source);
  const brackets = matchingBrackets(source);
  let buffer = "";
  const flush = () => {
    if (buffer !== "") out.push(text(buffer));
    buffer = "";
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === "\\" && PUNCTUATION.test(source[i + 1] ?? "")) {
      buffer += source[i + 1];
      i += 2;
      continue;
    }
    if (c === "`") {
      let end = i;
      while (source[end] === "`") end++;
      const close = ticks.next(end - i, end);
      if (close === -1) {
        buffer += source.slice(i, end);
        i = end;
        continue;
      }
      flush();
      out.push(code(codeSpanContent(source.slice(end, close))));
      i = close + (end - i);
      continue;
    }
    if (c === "*" && source[i + 1] === "*" && depth === 0) {
      const close = source.indexOf("**", i + 2);
      if (close > i + 2 && !source.slice(i + 2, close).includes("\n\n")) {
        flush();
        out.push(strong(...modelInlines(source.slice(i + 2, close), context, depth + 1)));
        i = close + 2;
        continue;
      }
    }
    const image = c === "!" && source[i + 1] === "[";
    if ((c === "[" || image) && depth < 2) {
      const open = image ? i + 1 : i;
      const close = brackets.get(open);
      if (close !== undefined) {
        const target = linkTarget(source, open, close, context);
        if (target !== null) {
          flush();
          const inner = source.slice(open + 1, close);
          const label = modelInlines(inner, context, depth + 2);
          out.push(...(image ? shown(label, target.url) : linkOrShown(label, target.url, context)));
          i = target.end;
          continue;
        }
      }
    }
    if (c === "<") {
      AUTOLINK.lastIndex = i;
      const auto = AUTOLINK.exec(source);
      if (auto !== null) {
        flush();
        out.push(...linkOrShown([text(auto[1]!)], auto[1]!, context));
        i = AUTOLINK.lastIndex;
        continue;
      }
    }
    if ((c === "h" || c === "H") && !/[A-Za-z0-9]/.test(source[i - 1] ?? "")) {
      BARE_URL.lastIndex = i;
      const bare = BARE_URL.exec(source);
      if (bare !== null) {
        const url = bare[0].replace(/[.,:;!?*_~'"]+$/, "");
        flush();
        out.push(...linkOrShown([text(url)], url, context));
        i += url.length;
        continue;
      }
    }
    buffer += c;
    i++;
  }
  flush();
  return out;
}

function linkTarget(
  source: string,
  open: number,
  close: number,
  context: InlineContext,
): { url: string; end: number } | null {
  DESTINATION.lastIndex = close + 1;
  const inline = DESTINATION.exec(source);
  if (inline !== null) return { url: inline[1] ?? inline[2] ?? "", end: DESTINATION.lastIndex };
  REFERENCE.lastIndex = close + 1;
  const full = REFERENCE.exec(source);
  const key = full !== null && full[1]!.trim() !== "" ? full[1]! : source.slice(open + 1, close);
  const url = context.definitions.get(key.trim().replace(/\s+/g, " ").toLowerCase());
  if (url === undefined) return null;
  return { url, end: full !== null ? REFERENCE.lastIndex : close + 1 };
}

function linkOrShown(children: Inline[], url: string, context: InlineContext): Inline[] {
  const link = repositoryLink(url, context.repository, children);
  if (link !== null) return [link];
  const plain = plainText(children);
  // An autolink shows its own URL: once, as code.
  if (url === plain || url === `mailto:${plain}`) return [code(plain)];
  return shown(children, url);
}

/** The label, then the URL in a code span: visible, never clickable. */
function shown(label: Inline[], url: string): Inline[] {
  if (url === "") return label;
  if (plainText(label).trim() === "") return [code(url)];
  return [...label, text(" ("), code(url), text(")")];
}

/** CommonMark: line endings become spaces, and one space each side goes if both are there. */
function codeSpanContent(raw: string): string {
  const content = raw.replace(/\n/g, " ");
  return content.startsWith(" ") && content.endsWith(" ") && content.trim() !== ""
    ? content.slice(1, -1)
    : content;
}

/** For each backtick run length, the starts of runs in order: finding a closer is amortised O(1). */
function backtickRuns(source: string): { next(length: number, after: number): number } {
  const byLength = new Map<number, number[]>();
  for (const { start, length } of backtickRunsIn(source)) {
    const list = byLength.get(length) ?? [];
    list.push(start);
    byLength.set(length, list);
  }
  const cursor = new Map<number, number>();
  return {
    next(length, after) {
      const list = byLength.get(length) ?? [];
      let k = cursor.get(length) ?? 0;
      while (k < list.length && list[k]! < after) k++;
      cursor.set(length, k);
      return k < list.length ? list[k]! : -1;
    },
  };
}

/** Each `[` with its matching `]` (nesting counted, escapes skipped), in one pass. */
function matchingBrackets(source: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const stack: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") stack.push(i);
    else if (c === "]" && stack.length > 0) pairs.set(stack.pop()!, i);
  }
  return pairs;
}
