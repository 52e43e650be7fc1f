// Writes a Markdown tree as GitHub Markdown in which only the tree's own structure is syntax.
// Blocks are separated by a blank line and each one is closed where it ends (fences included),
// so no block can change how the next one is read.

import { fenceFor, indentedBlock } from "./code-fence.ts";
import { codeSpan, escapeText, guardLineStarts, type TextContext } from "./markdown-escape.ts";
import { breakMarkers, stripInvisible } from "./markdown-text.ts";
import type { Block, CodeInfo, Inline } from "./markdown-tree.ts";

export function serializeBlocks(blocks: readonly Block[]): string {
  return blocks
    .map(serializeBlock)
    .filter((md) => md !== "")
    .join("\n\n");
}

export function serializeBlock(block: Block): string {
  switch (block.type) {
    case "paragraph":
      // Trimmed before the guard, which then sees every line start as GitHub will.
      return guardLineStarts(serializeInlines(block.children, {}).trim()).trimEnd();
    case "heading": {
      const content = serializeInlines(block.children, { oneLine: true }).trim();
      return content === "" ? "" : `${"#".repeat(block.depth)} ${content}`;
    }
    case "codeBlock":
      return fencedBlock(block.value, block.info);
    case "table":
      return serializeTable(block);
    case "marker":
      return block.value;
  }
}

export function serializeInlines(nodes: readonly Inline[], context: TextContext): string {
  // Pieces joined once, and the last one's end remembered: asking the growing string itself how it
  // ends flattens it on every node, quadratic in a paragraph of thousands of links.
  const pieces: string[] = [];
  let endsInBacktick = false;
  for (const node of nodes) {
    const md = serializeInline(node, context);
    if (md === "") continue;
    // Two adjacent code spans would merge their backtick runs into one delimiter.
    pieces.push(endsInBacktick && md.startsWith("`") ? ` ${md}` : md);
    endsInBacktick = md.endsWith("`");
  }
  return pieces.join("");
}

function serializeInline(node: Inline, context: TextContext): string {
  switch (node.type) {
    case "text":
      return escapeText(node.value, context);
    case "code":
      return codeSpan(node.value, context);
    case "break":
      return context.oneLine === true ? " " : "\\\n";
    case "link": {
      const label = serializeInlines(node.children, { ...context, oneLine: true }).trim();
      return `[${label === "" ? escapeText(node.href, context) : label}](<${node.href}>)`;
    }
    case "strong":
    case "emphasis": {
      // Delimiters next to spaces would not pair (and `* ` at a line start is a list item), so
      // spaces stay outside them; an empty pair is left out.
      const inner = serializeInlines(node.children, context);
      const content = inner.trim();
      if (content === "") return inner === "" ? "" : " ";
      const mark = node.type === "strong" ? "**" : "*";
      const lead = inner.length - inner.trimStart().length > 0 ? " " : "";
      const trail = inner.length - inner.trimEnd().length > 0 ? " " : "";
      return `${lead}${mark}${content}${mark}${trail}`;
    }
  }
}

/**
 * Fence characters: a suggestion needs backticks; other code takes the shorter safe fence. Code
 * that no fence of at most 255 can hold (code-fence.ts) is indented instead, a suggestion too:
 * it is then plain code, never a suggestion that would apply only part of itself.
 */
export function fencedBlock(value: string, info: CodeInfo): string {
  const content = codeContent(value);
  const ticks = fenceFor(content, "`");
  const tildes = info === "suggestion" ? null : fenceFor(content, "~");
  const fence = tildes === null || (ticks !== null && ticks.length <= tildes.length) ? ticks : tildes;
  if (fence === null) return indentedBlock(content);
  const label = info === "" ? "" : info === "suggestion" ? "suggestion" : safeLanguage(info.language);
  return `${fence}${label}\n${content}\n${fence}`;
}

/** Whether `value` can be offered as a ```suggestion block (see fencedBlock). */
export function canFenceSuggestion(value: string): boolean {
  return fenceFor(codeContent(value), "`") !== null;
}

function codeContent(value: string): string {
  return breakMarkers(stripInvisible(value)).replace(/\n$/, "");
}

// GitHub renders these info strings as something other than code (math, diagrams, maps, models,
// suggestions); a model's block never gets one.
const RENDERED = /^(?:suggestion|math|mermaid|geojson|topojson|stl|diff-suggestion)$/i;

/** A plain language word, or nothing. */
export function safeLanguage(language: string): string {
  return /^[A-Za-z0-9_+.#-]{1,32}$/.test(language) && !RENDERED.test(language) ? language : "";
}

function serializeTable(block: Extract<Block, { type: "table" }>): string {
  const cells = (row: readonly string[]) => `| ${row.join(" | ")} |`;
  const head = cells(block.header.map((h) => escapeText(h, { oneLine: true, inTable: true })));
  const rule = cells(block.align.map((a) => (a === "right" ? "---:" : "---")));
  const rows = block.rows.map((row) => tableRow(row));
  return [head, rule, ...rows].join("\n");
}

export function tableRow(row: readonly (readonly Inline[])[]): string {
  const cells = row.map((cell) => serializeInlines(cell, { oneLine: true, inTable: true }).trim() || "—");
  return `| ${cells.join(" | ")} |`;
}
