// Some hosts' renderers link more than GitHub's after Markdown, in the rendered text where an
// escape no longer counts, and read more from a note's raw text: `!12` (a merge request), `$12`
// (a snippet), `&12` (an epic), `%name` and `%"a name"` (a milestone), `~name` (a label),
// `*iteration:12`, `[vulnerability:12]`, `[contact:…]`, `[[_TOC_]]` and `[TOC]` (a table of
// contents), `{+ +}` and `[- -]` (inline diff), and a line starting `/word` (a quick action the
// note's author would run). A repository whose host renders so says `references: "wide"`, and its
// model text gets a look-alike for each such sigil before the writer escapes it (docs/publishing.md);
// so do the diagram and math fence languages such a host renders (some by calling a server).

import type { Block, Inline } from "./markdown-tree.ts";

/** How the repository's host links references in rendered text; absent: as GitHub does. */
export type ReferenceSyntax = "wide";

const SIGILS: readonly [RegExp, string][] = [
  [/!(?=\d)/g, "\uFF01"], // ！
  [/\$(?=\d)/g, "\uFF04"], // ＄
  [/&(?=\d)/g, "\uFF06"], // ＆
  [/%(?=[\p{L}\p{N}_"])/gu, "\uFF05"], // ％
  [/~(?=[\p{L}\p{N}_"])/gu, "\uFF5E"], // ～
  [/\*(?=iteration:)/gi, "\uFF0A"], // ＊
  [/\[(?=\[_toc_\]\]|toc\]|vulnerability:|contact:|-)/gi, "\uFF3B"], // ［
  [/\{(?=[+-])/g, "\uFF5B"], // ｛
  [/(^|\n)(\s*)\//g, "$1$2\u2215"], // ∕ at a line's start
];

/** The text with every sigil such a host would read replaced by its look-alike. */
export function neutralReferences(text: string): string {
  let out = text;
  for (const [pattern, lookAlike] of SIGILS) out = out.replace(pattern, lookAlike);
  return out;
}

/** Fence languages such a host renders as something else: diagrams (some drawn by a server), math. */
const RENDERED = new Set(
  (
    "math mermaid plantuml kroki graphviz blockdiag seqdiag actdiag nwdiag packetdiag rackdiag " +
    "bpmn bytefield c4plantuml d2 dbml ditaa erd excalidraw nomnoml pikchr structurizr svgbob " +
    "symbolator tikz umlet vega vegalite wavedrom geojson topojson stl"
  ).split(" "),
);

export function neutralBlocks(blocks: readonly Block[]): Block[] {
  return blocks.map((block) => {
    if (block.type === "paragraph") return { ...block, children: block.children.map(neutralInline) };
    if (
      block.type === "codeBlock" &&
      typeof block.info === "object" &&
      RENDERED.has(block.info.language.toLowerCase())
    )
      return { ...block, info: "" };
    return block;
  });
}

function neutralInline(node: Inline): Inline {
  if (node.type === "text") return { ...node, value: neutralReferences(node.value) };
  if ("children" in node) return { ...node, children: node.children.map(neutralInline) } as Inline;
  return node;
}
