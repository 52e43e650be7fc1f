// Loupe's hidden markers (HTML comments GitHub does not show) are for Loupe to find its own
// comments again; printed in a terminal or a Markdown file they are noise. A marker is always a
// block of its own, so a line that is exactly one is dropped, with the blank line it leaves.

import { HIDDEN_MARKERS } from "./markdown-tree.ts";

export function stripHiddenMarkers(markdown: string): string {
  const lines = markdown.split("\n");
  const kept = lines.filter((line) => !HIDDEN_MARKERS.some((shape) => shape.test(line)));
  return kept
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd();
}
