// Cuts a Markdown tree to a length limit. Whole blocks are kept while they fit; the first one that
// does not is shortened in its content (text and code, at code-point boundaries) and serialized
// again, never cut in its Markdown, so every fence and span stays closed. A visible note ends it.

import { cutCodePoints } from "../domain/text.ts";
import { serializeBlock } from "./markdown-serialize.ts";
import { type Block, emphasis, type Inline, paragraph, text } from "./markdown-tree.ts";

export const TRUNCATION_MARKER = "\n\n*… (truncated by Loupe)*";
const NOTE = paragraph(emphasis(text("… (truncated by Loupe)")));

/** `cut`: the content was already shortened before it was parsed, so the note is due anyway. */
export function fitBlocks(blocks: readonly Block[], maxLength: number, cut = false): Block[] {
  const sizes = blocks.map((block) => serializeBlock(block).length);
  const total = sizes.reduce((sum, size) => sum + size, 0) + 2 * Math.max(0, blocks.length - 1);
  if (total <= maxLength && !cut) return [...blocks];
  if (total + TRUNCATION_MARKER.length <= maxLength) return [...blocks, NOTE];
  const budget = maxLength - TRUNCATION_MARKER.length;
  if (budget < 0) return maxLength >= TRUNCATION_MARKER.length - 2 ? [NOTE] : [];
  const kept: Block[] = [];
  let used = 0;
  for (let i = 0; i < blocks.length; i++) {
    const separator = kept.length > 0 ? 2 : 0;
    if (used + separator + sizes[i]! <= budget) {
      kept.push(blocks[i]!);
      used += separator + sizes[i]!;
      continue;
    }
    const shortened = shorten(blocks[i]!, budget - used - separator, sizes[i]!);
    if (shortened !== null) kept.push(shortened);
    break;
  }
  return [...kept, NOTE];
}

/**
 * A prefix of the block's content whose Markdown fits in `room`, or null. Escaping makes Markdown
 * longer than its content by a factor that varies little along a text, so the first guess is
 * proportional and each retry shrinks by the measured overshoot: two or three serializations
 * instead of a binary search's fifteen (which took seconds on 16 KB fields).
 */
function shorten(block: Block, room: number, fullSize: number): Block | null {
  let cut: ((units: number) => Block) | null = null;
  let size = 0;
  if (block.type === "paragraph") {
    cut = (units) => paragraph(...cutInlines(block.children, units));
    size = contentLength(block.children);
  } else if (block.type === "codeBlock" && block.info !== "suggestion") {
    // A shortened suggestion would be wrong code to apply with one click: it goes whole or not at all.
    cut = (units) => {
      const prefix = cutCodePoints(block.value, units);
      const line = prefix.lastIndexOf("\n");
      return { ...block, value: line > 0 ? prefix.slice(0, line) : prefix };
    };
    size = block.value.length;
  }
  if (cut === null || size === 0) return null;
  let units = Math.min(size, Math.floor((room * size) / Math.max(fullSize, 1)));
  for (let attempt = 0; attempt < 12 && units > 0; attempt++) {
    const candidate = cut(units);
    const { length } = serializeBlock(candidate);
    if (length <= room) return length === 0 ? null : candidate;
    units = Math.min(units - 1, Math.floor(((units * room) / length) * 0.97));
  }
  return null;
}

function contentLength(nodes: readonly Inline[]): number {
  let length = 0;
  for (const node of nodes) {
    if (node.type === "text" || node.type === "code") length += node.value.length;
    else if (node.type === "break") length += 1;
    else length += contentLength(node.children);
  }
  return length;
}

/** The first `units` UTF-16 units of the nodes' content, structure kept. */
export function cutInlines(nodes: readonly Inline[], units: number): Inline[] {
  const out: Inline[] = [];
  let left = units;
  for (const node of nodes) {
    if (left <= 0) break;
    if (node.type === "text" || node.type === "code") {
      const value = cutCodePoints(node.value, left);
      out.push({ ...node, value });
      left -= node.value.length;
    } else if (node.type === "break") {
      out.push(node);
      left -= 1;
    } else {
      out.push({ ...node, children: cutInlines(node.children, left) });
      left -= contentLength(node.children);
    }
  }
  return out;
}
