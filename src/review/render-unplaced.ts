// The findings of a review that a host would not place on their lines once the rest of the review
// had landed (GitLab validates a diff note's line only when it publishes it), in one note: a line
// saying so, then each finding's location and its comment as it would have been on the line
// (rendered by the inert writer already, each a run of closed blocks), then the note's marker.

import type { ForgeWords } from "../domain/forge-words.ts";
import { serializeBlocks } from "./markdown-serialize.ts";
import { code, paragraph, strong, text } from "./markdown-tree.ts";

export interface UnplacedComment {
  readonly path: string;
  readonly line: number;
  readonly body: string;
}

export function renderUnplaced(
  comments: readonly UnplacedComment[],
  marker: string,
  words: ForgeWords,
): string {
  const n = comments.length;
  const head = serializeBlocks([
    paragraph(
      strong(text("Loupe review")),
      text(
        ` — ${n} finding${n === 1 ? "" : "s"} could not be placed on ${n === 1 ? "its line" : "their lines"}` +
          ` (the ${words.change}'s diff refused ${n === 1 ? "it" : "them"}), so ${n === 1 ? "it is" : "they are"} here.`,
      ),
    ),
  ]);
  const parts = comments.map(
    (comment) =>
      `${serializeBlocks([paragraph(code(`${comment.path}:${comment.line}`))])}\n\n${comment.body}`,
  );
  return [head, ...parts, marker].join("\n\n");
}
