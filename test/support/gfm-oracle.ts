// A real GFM parser as the judge of what Loupe publishes: micromark with its GFM extensions
// (in-process, for the generated cases) and Debian's cmark-gfm, GitHub's own parser (a process
// per document, for the named table). Both render raw HTML as written, so anything that escaped
// Loupe's escaping shows up in the HTML, where the checks below look for it.

import { spawnSync } from "node:child_process";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

export type Oracle = (markdown: string) => string;

// Built once: constructing the extensions costs more than parsing a short document.
const MICROMARK_OPTIONS = {
  allowDangerousHtml: true,
  allowDangerousProtocol: true,
  extensions: [gfm()],
  htmlExtensions: [gfmHtml()],
};

export const micromarkOracle: Oracle = (markdown) => micromark(markdown, MICROMARK_OPTIONS);

export function cmarkAvailable(): boolean {
  return spawnSync("cmark-gfm", ["--version"]).status === 0;
}

export const cmarkOracle: Oracle = (markdown) => {
  const run = spawnSync(
    "cmark-gfm",
    ["--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist", "-e", "footnotes"],
    { input: markdown, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`cmark-gfm failed: ${run.stderr}`);
  return run.stdout;
};

export interface Expectation {
  /** The only links allowed: under this https prefix (the reviewed repository). */
  readonly linkPrefix: string | null;
  /** Loupe's hidden markers that must each appear exactly once; no other comment may exist. */
  readonly markers: readonly string[];
}

// Tags the serializer can produce; anything else (lists, quotes, images, raw HTML) is a finding.
const ALLOWED_TAG =
  /^<(?:\/?(?:p|strong|em|code|pre|h[1-6]|table|thead|tbody|tr)|\/t[hd]|t[hd](?: align="(?:left|right)")?|br ?\/?|code class="language-[A-Za-z0-9_+.#-]+")>$/;
const LIVE_TEXT: readonly [string, RegExp][] = [
  ["a mention", /@/],
  ["a cross-reference", /#\d|\bgh-\d/i],
  ["a live URL", /:\/\/|www\./i],
];

/** What is wrong with the rendered HTML; an empty list when nothing is. */
export function htmlProblems(html: string, expectation: Expectation): string[] {
  const problems: string[] = [];
  const comments = html.match(/<!--[\s\S]*?-->/g) ?? [];
  const expected = [...expectation.markers].sort();
  if (JSON.stringify([...comments].sort()) !== JSON.stringify(expected)) {
    problems.push(`hidden comments ${JSON.stringify(comments)} instead of ${JSON.stringify(expected)}`);
  }
  const rest = html.replace(/<!--[\s\S]*?-->/g, "");
  let codeDepth = 0;
  for (const piece of rest.split(/(<[^>]*>)/)) {
    if (piece.startsWith("<")) {
      const link = /^<a href="([^"]*)">$/.exec(piece);
      if (link !== null) {
        const href = decode(link[1]!);
        const prefix = expectation.linkPrefix;
        if (prefix === null || !(href === prefix || href.startsWith(`${prefix}/`)))
          problems.push(`a link to ${href}`);
        else if (/^\/(?:issues|pull|pulls|discussions)\b/.test(href.slice(prefix.length)))
          problems.push(`a cross-referencing link ${href}`);
      } else if (piece !== "</a>" && !ALLOWED_TAG.test(piece)) {
        problems.push(`the tag ${piece.slice(0, 80)}`);
      }
      if (/^<(?:code|pre)\b/.test(piece)) codeDepth++;
      if (/^<\/(?:code|pre)>/.test(piece)) codeDepth--;
      continue;
    }
    if (piece.includes("<")) problems.push(`a raw < in ${piece.slice(0, 80)}`);
    if (codeDepth > 0) continue;
    const shown = decode(piece);
    for (const [name, pattern] of LIVE_TEXT) {
      if (pattern.test(shown)) problems.push(`${name} in text: ${JSON.stringify(shown.slice(0, 120))}`);
    }
  }
  return problems;
}

function decode(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Markers in the raw Markdown (Loupe searches raw bodies): exactly the expected ones. */
export function rawMarkerProblems(markdown: string, expectation: Expectation): string[] {
  const found = markdown.match(/<!--\s*loupe[\s\S]*?-->/gi) ?? [];
  const forged = (markdown.match(/<!--\s*loupe/gi) ?? []).length;
  const expected = [...expectation.markers].sort();
  return JSON.stringify([...found].sort()) === JSON.stringify(expected) && forged === expected.length
    ? []
    : [`raw markers ${JSON.stringify(found)} instead of ${JSON.stringify(expected)}`];
}

export function allProblems(markdown: string, oracle: Oracle, expectation: Expectation): string[] {
  return [...rawMarkerProblems(markdown, expectation), ...htmlProblems(oracle(markdown), expectation)];
}
