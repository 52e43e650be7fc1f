// Which lines of a note GitLab would run as quick actions, decided the two ways GitLab decides
// (the shared conformance checker, ../shared/conformance/gitlab-quick-actions.mjs, decides the
// same; this one judges many notes per cmark-gfm process):
//
//  - the regex era: Gitlab::QuickActions::Extractor#commands_regex (lib/gitlab/quick_actions/
//    extractor.rb), ported as it is: Ruby's /mix is JS's "gmsi" here (^ and $ are line anchors in
//    Ruby anyway, m lets `.` match a newline, x only allows the comments). Its "inline code"
//    alternative was written two ways over the releases: `\`\n*.+?\n*\`` (older) and
//    `^.*\`\n*.+?\n*\`$` (later); a note is judged by both. Every `/word` counts, not only the
//    names a given release knows (they grow with each release and with EE);
//  - the markdown era: lines starting with `/` (after spaces) in top-level paragraphs of the
//    CommonMark tree, as cmark-gfm's XML gives it, inline markup read away.

import { spawnSync } from "node:child_process";
import { cmarkJudges } from "./gfm-oracle.ts";

const COMMAND = String.raw`(?:^\/(?<cmd>[a-z_]+)(?:[ ](?<arg>[^\n]*))?(?:\s*\n|$))`;
const CODE = String.raw`(?<code>^\`\`\`.+?\n\`\`\`$)`;
const HTML = String.raw`(?<html>^<[^>]+?>\n.+?\n<\/[^>]+?>$)`;
const QUOTE = String.raw`(?<quote>^>>>.+?\n>>>$)`;
const INLINE_FORMS = [String.raw`(?<inline>\`\n*.+?\n*\`)`, String.raw`(?<inline>^.*\`\n*.+?\n*\`$)`];
const REGEXPS = INLINE_FORMS.map(
  (inline) => new RegExp(`${CODE}|${inline}|${HTML}|${QUOTE}|${COMMAND}`, "gmsi"),
);

// Every command the regexps find starts where this matches (their COMMAND alternative opens with
// `^\/`, a line start in /m); a note without one holds no command, and skips the regexps, whose
// `^.*` over a whole note (/s) backtracks through it from every line start.
const COMMAND_START = /^\//m;

/** The commands the regex era would run in `note` (GitLab deletes every \r first). */
export function regexEraCommands(note: string): string[] {
  const text = note.replace(/\r/g, "");
  if (!COMMAND_START.test(text)) return [];
  const found = new Set<string>();
  for (const regexp of REGEXPS)
    for (const match of text.matchAll(regexp))
      if (match.groups?.cmd !== undefined)
        found.add(`/${match.groups.cmd}${match.groups.arg ? ` ${match.groups.arg}` : ""}`);
  return [...found];
}

const CMARK_ARGS = ["-t", "xml", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist"];
const separator = (i: number) => `quick-action-note-end-${i}`;

/**
 * The lines the markdown era would run in each note, one cmark-gfm process for many notes: each
 * note is followed by a paragraph naming it, found at the top level only when the note closed
 * everything it opened; a note that swallows it is judged again alone.
 */
export function markdownEraCommands(notes: readonly string[]): string[][] {
  cmarkJudges();
  const out: string[][] = [];
  let first = 0;
  while (first < notes.length) {
    const batch = notes.slice(first);
    const xml = runCmark(batch.map((note, i) => `${note}\n\n${separator(i)}\n\n`).join(""));
    const paragraphs = topLevelParagraphs(xml);
    let i = 0;
    let lines: string[] = [];
    for (const paragraph of paragraphs) {
      if (i >= batch.length) break;
      if (paragraph.length === 1 && paragraph[0] === separator(i)) {
        out.push(lines.filter(isCommand));
        lines = [];
        i++;
      } else lines.push(...paragraph);
    }
    if (i === 0) {
      // The first note swallowed its end: judged alone, it ends where the document does.
      out.push(topLevelParagraphs(runCmark(batch[0]!)).flat().filter(isCommand));
      i = 1;
    }
    first += i;
  }
  return out;
}

const isCommand = (line: string) => /^\/[a-z_]+(?:\s|$)/i.test(line);

function runCmark(markdown: string): string {
  const run = spawnSync("cmark-gfm", CMARK_ARGS, { input: markdown, encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`cmark-gfm failed: ${run.stderr}`);
  return run.stdout;
}

/** Each top-level paragraph of cmark-gfm's XML as its lines of text, leading spaces removed. */
function topLevelParagraphs(xml: string): string[][] {
  const paragraphs: string[][] = [];
  let depth = 0;
  let lines: string[] | null = null;
  let line = "";
  const flush = () => {
    lines?.push(line.replace(/^[ \t]+/, ""));
    line = "";
  };
  for (const tag of xml.matchAll(/<(\/?)([a-z_]+)[^>]*?(\/?)>([^<]*)/g)) {
    const [, close, name, selfClose, after] = tag as unknown as [string, string, string, string, string];
    if (close) {
      depth--;
      if (name === "paragraph" && lines !== null && depth === 1) {
        flush();
        paragraphs.push(lines);
        lines = null;
      }
    } else if (!selfClose) {
      depth++;
      if (name === "paragraph" && depth === 2) lines = [];
    }
    if (lines === null || close) continue;
    if (name === "softbreak" || name === "linebreak") flush();
    else if (name === "text") line += decode(after);
    else if (name === "code") line += "`";
  }
  return paragraphs;
}

function decode(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}
