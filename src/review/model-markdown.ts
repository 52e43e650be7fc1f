// Model text → Loupe's Markdown tree, through an allow-list: paragraphs, fenced code blocks, and
// (model-inlines.ts) inline code, bold, and links into this repository. Headings become bold
// paragraphs, list items paragraphs with a bullet, quotes their content; everything else is text.
// Safety does not depend on this reading agreeing with GitHub's: whatever it finds, the serializer
// writes only escaped content. It only has to be faithful enough, and linear: a GFM parser
// (micromark) took 13 s on 10,000 `*` and 2.7 s on 64 KB of "@x #1" (see docs/publishing.md).

import { stripInvisible } from "./markdown-text.ts";
import { type Block, codeBlock, paragraph, strong } from "./markdown-tree.ts";
import { modelInlines } from "./model-inlines.ts";
import type { RepositoryRef } from "./repository-link.ts";
import { neutralBlocks } from "./wide-references.ts";

const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;
const QUOTE = /^(?:[ \t]*>)+[ \t]?/;
const HEADING = /^[ \t]{0,3}#{1,6}(?:[ \t]+|$)/;
const BULLET = /^[ \t]*(?:[-*+]|(\d{1,9})[.)])[ \t]+/;
const BREAK_LINE = /^[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|=+[ \t]*)$/;
const DEFINITION = /^[ \t]{0,3}\[([^\]\n]{1,999})\]:[ \t]*<?([^\s>]+)>?.*$/;

export function modelBlocks(markdown: string, repository: RepositoryRef | null): Block[] {
  const lines = stripInvisible(markdown).split("\n");
  const definitions = new Map<string, string>();
  for (const line of lines) {
    const definition = DEFINITION.exec(line.replace(QUOTE, "").replace(BULLET, ""));
    if (definition !== null && !definitions.has(label(definition[1]!)))
      definitions.set(label(definition[1]!), definition[2]!);
  }
  const context = { repository, definitions };
  const blocks: Block[] = [];
  let prose: string[] = [];
  let bold = false;
  const flush = () => {
    const inlines = modelInlines(prose.join("\n"), context);
    if (inlines.length > 0) blocks.push(bold ? paragraph(strong(...inlines)) : paragraph(...inlines));
    prose = [];
    bold = false;
  };
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.replace(QUOTE, "");
    const fence = FENCE.exec(line);
    if (fence !== null && !(fence[2]![0] === "`" && fence[3]!.includes("`"))) {
      flush();
      const [, indent, marker, info] = fence as unknown as [string, string, string, string];
      const body: string[] = [];
      for (i++; i < lines.length; i++) {
        const inner = lines[i]!.replace(QUOTE, "");
        if (isClosing(inner, marker)) break;
        body.push(inner.startsWith(indent) ? inner.slice(indent.length) : inner.trimStart());
      }
      const language = info.trim().split(/\s/)[0] ?? "";
      blocks.push(codeBlock(body.join("\n"), language === "" ? "" : { language }));
      continue;
    }
    if (line.trim() === "" || BREAK_LINE.test(line) || DEFINITION.test(line.replace(BULLET, ""))) {
      flush();
      continue;
    }
    if (HEADING.test(line)) {
      flush();
      prose.push(line.replace(HEADING, "").replace(/[ \t]+#+[ \t]*$/, ""));
      bold = true;
      flush();
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet !== null) {
      flush();
      line = `${bullet[1] === undefined ? "•" : `${bullet[1]}.`} ${line.slice(bullet[0].length)}`;
    }
    prose.push(line);
  }
  flush();
  return repository?.references === "wide" ? neutralBlocks(blocks) : blocks;
}

function isClosing(line: string, marker: string): boolean {
  const trimmed = line.trim();
  if (trimmed.length < marker.length) return false;
  for (let i = 0; i < trimmed.length; i++) if (trimmed[i] !== marker[0]) return false;
  return true;
}

/** Reference labels match case-insensitively with whitespace collapsed. */
export function label(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}
