// A real GFM parser as the judge of what Loupe publishes: micromark with its GFM extensions
// (in-process) and Debian's cmark-gfm, GitHub's own parser (one process for many documents, see
// cmarkBatch). Both render raw HTML as written, so anything that escaped Loupe's escaping shows
// up in the HTML, where the checks below look for it. cmark-gfm has limits micromark does not
// (a code span opened by more than 80 backticks never closes; a fence over 255 closes at 255), so
// only it finds output that relies on them.

import { spawnSync } from "node:child_process";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { requireProgram } from "./programs.ts";

export type Oracle = (markdown: string) => string;

// Built once: constructing the extensions costs more than parsing a short document.
const MICROMARK_OPTIONS = {
  allowDangerousHtml: true,
  allowDangerousProtocol: true,
  extensions: [gfm()],
  htmlExtensions: [gfmHtml()],
};

export const micromarkOracle: Oracle = (markdown) => micromark(markdown, MICROMARK_OPTIONS);

/**
 * cmark-gfm judges every run: a missing one fails the suite with how to get it (the preflight
 * installs it or stops before the first test), never a silent skip that passes with fewer checks.
 */
export function cmarkJudges(): true {
  requireProgram("cmark-gfm");
  return true;
}

const CMARK_ARGS = [
  "--unsafe",
  ...["-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist", "-e", "footnotes"],
];

function runCmark(markdown: string): string {
  const run = spawnSync("cmark-gfm", CMARK_ARGS, {
    input: markdown,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`cmark-gfm failed: ${run.stderr}`);
  return run.stdout;
}

export const cmarkOracle: Oracle = runCmark;

const separator = (index: number) => `oracle-document-end-${index}`;

/**
 * The HTML cmark-gfm makes of each document, from one process per batch: a process per document
 * costs more than parsing it. After each document comes a blank line and a paragraph naming it;
 * that paragraph comes out as a top-level `<p>` only when the document closed everything it
 * opened, so a document that leaks into what follows is itself found (null) rather than hidden.
 */
export function cmarkBatch(documents: readonly string[]): (string | null)[] {
  const out: (string | null)[] = [];
  let first = 0;
  while (first < documents.length) {
    const batch = documents.slice(first);
    const html = `\n${runCmark(batch.map((doc, i) => `${doc}\n\n${separator(i)}\n\n`).join(""))}`;
    let from = 0;
    let i = 0;
    for (; i < batch.length; i++) {
      const end = html.indexOf(`\n<p>${separator(i)}</p>\n`, from);
      if (end === -1) break;
      out.push(html.slice(from + 1, end + 1));
      from = end + `\n<p>${separator(i)}</p>\n`.length - 1;
    }
    if (i < batch.length) out.push(null); // it swallowed its end: judge the rest in a fresh process
    first += i + 1;
  }
  return out;
}

/**
 * What no published text may hold: default-ignorable and format characters, the line and
 * paragraph separators, and controls other than tab and newline.
 */
export const PUBLISHED_INVISIBLE =
  /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2028\u2029\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;

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
  if (!text.includes("&")) return text; // every reference below starts with one
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

export interface Judged {
  readonly markdown: string;
  readonly expectation: Expectation;
}

/** allProblems by cmark-gfm for each document, all of them parsed by one process (cmarkBatch). */
export function cmarkProblems(documents: readonly Judged[]): string[][] {
  const html = cmarkBatch(documents.map((d) => d.markdown));
  return documents.map((d, i) => [
    ...rawMarkerProblems(d.markdown, d.expectation),
    ...(html[i] === null
      ? ["cmark-gfm: it leaves a block open that swallows what follows it"]
      : htmlProblems(html[i]!, d.expectation).map((p) => `cmark-gfm: ${p}`)),
  ]);
}
