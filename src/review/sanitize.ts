// Model text is untrusted output. These turn it into Loupe's Markdown tree (model-markdown.ts),
// cut to a length limit (fit-blocks.ts), and into Markdown that is inert on GitHub whatever it
// contains (markdown-serialize.ts). See docs/publishing.md, "Rendering model text".

import { cutCodePoints } from "../domain/text.ts";
import { fitBlocks } from "./fit-blocks.ts";
import { serializeBlocks } from "./markdown-serialize.ts";
import type { Block } from "./markdown-tree.ts";
import { modelBlocks } from "./model-markdown.ts";
import type { RepositoryRef } from "./repository-link.ts";

export { TRUNCATION_MARKER } from "./fit-blocks.ts";

export interface SanitizeOptions extends RepositoryRef {
  /** Upper bound on the returned Markdown's length, truncation note included. */
  readonly maxLength: number;
}

/**
 * Input beyond this many times the limit cannot be published anyway (escaping only grows text, and
 * only reference definitions vanish), so it is not parsed.
 */
const PARSE_FACTOR = 2;

export function sanitizeBlocks(text: string, repository: RepositoryRef | null, maxLength: number): Block[] {
  const source = cutCodePoints(text, maxLength * PARSE_FACTOR);
  return fitBlocks(modelBlocks(source, repository), maxLength, source.length < text.length);
}

export function sanitizeMarkdown(text: string, options: SanitizeOptions): string {
  return serializeBlocks(sanitizeBlocks(text, options, options.maxLength));
}
