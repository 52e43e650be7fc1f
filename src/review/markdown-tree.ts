// The only Markdown Loupe publishes, as a tree. Every string in it is content, never syntax: the
// serializer (markdown-serialize.ts) escapes text totally, delimits code so that nothing inside
// can close it (code-span.ts, code-fence.ts), and writes a link or a hidden marker only from the
// validated nodes built here.

export type Inline =
  | { readonly type: "text"; readonly value: string }
  | { readonly type: "code"; readonly value: string }
  | { readonly type: "strong"; readonly children: readonly Inline[] }
  | { readonly type: "emphasis"; readonly children: readonly Inline[] }
  /** Built only by repositoryLink (repository-link.ts): the href is a checked URL into this repository. */
  | { readonly type: "link"; readonly href: string; readonly children: readonly Inline[] }
  | { readonly type: "break" };

export type CodeInfo = "" | "suggestion" | { readonly language: string };

export type Align = "left" | "right";

export type Block =
  | { readonly type: "paragraph"; readonly children: readonly Inline[] }
  | { readonly type: "heading"; readonly depth: 1 | 2 | 3 | 4 | 5 | 6; readonly children: readonly Inline[] }
  | { readonly type: "codeBlock"; readonly value: string; readonly info: CodeInfo }
  | {
      readonly type: "table";
      readonly align: readonly Align[];
      readonly header: readonly string[];
      readonly rows: readonly (readonly (readonly Inline[])[])[];
    }
  /** One of Loupe's own hidden markers; built only by hiddenMarker. */
  | { readonly type: "marker"; readonly value: string };

export const text = (value: string): Inline => ({ type: "text", value });
export const code = (value: string): Inline => ({ type: "code", value });
export const strong = (...children: Inline[]): Inline => ({ type: "strong", children });
export const emphasis = (...children: Inline[]): Inline => ({ type: "emphasis", children });
export const paragraph = (...children: Inline[]): Block => ({ type: "paragraph", children });
export const heading = (depth: 1 | 2 | 3 | 4 | 5 | 6, ...children: Inline[]): Block => ({
  type: "heading",
  depth,
  children,
});
export const codeBlock = (value: string, info: CodeInfo = ""): Block => ({ type: "codeBlock", value, info });

export const HIDDEN_MARKERS: readonly RegExp[] = [
  /^<!-- loupe:fp=[0-9a-f]{16} -->$/,
  /^<!-- loupe:review sha=[0-9a-f]{40}(?:[0-9a-f]{24})? run=\d{1,20} -->$/,
  /^<!-- loupe:unplaced sha=[0-9a-f]{40}(?:[0-9a-f]{24})? run=\d{1,20} -->$/,
  /^<!-- loupe:reply-to=\d{1,20} -->$/,
  /^<!-- loupe:finding code=[0-9a-f]{16} place=[0-9a-f]{8} claim=(?:[0-9a-f]{6}(?:,[0-9a-f]{6}){0,23})? -->$/,
  /^<!-- loupe:status=(?:still_valid|fixed|withdrawn|dismissed)(?: by=[A-Za-z0-9][A-Za-z0-9._-]{0,254})? -->$/,
  /^<!-- loupe:reviewed head=[0-9a-f]{40}(?:[0-9a-f]{24})? base=[0-9a-f]{40}(?:[0-9a-f]{24})? config=[0-9a-f]{16} -->$/,
];

/** Loupe's hidden markers have these exact shapes; anything else is refused, not published raw. */
export function hiddenMarker(value: string): Block {
  if (!HIDDEN_MARKERS.some((shape) => shape.test(value))) throw new TypeError("not a Loupe marker");
  return { type: "marker", value };
}

/** Text and code of inline nodes as a reader sees it (for lengths and comparisons). */
export function plainText(nodes: readonly Inline[]): string {
  return nodes
    .map((node) => {
      if (node.type === "text" || node.type === "code") return node.value;
      if (node.type === "break") return "\n";
      return plainText(node.children);
    })
    .join("");
}
