// Choosing a fence that no line of a code block can close on GitHub. Only a line made of fence
// characters alone (after at most three spaces, before spaces or tabs) closes a fence, and it
// closes one of the same character that is no longer than itself. cmark-gfm keeps a fence's
// length in one byte, reading an opening fence longer than 255 as 255, so a content line of 255
// such characters closes any fence: a fence is useful only up to 255. Code no fence can hold is
// written as an indented code block, which no content line can end.

export const MAX_FENCE = 255;

export type FenceChar = "`" | "~";

/**
 * The shortest fence of `char` (at least 3) longer than every line of `content` that could close
 * it, or null when that would be over 255. Leading and trailing whitespace of every kind counts
 * as a closer's padding: treating a few more lines as closers only makes the fence longer.
 */
export function fenceFor(content: string, char: FenceChar): string | null {
  let longest = 0;
  for (const line of content.split("\n")) {
    const run = line.trim();
    if (run.length > longest && run.length >= 3 && onlyChar(run, char)) longest = run.length;
  }
  const length = Math.max(3, longest + 1);
  return length <= MAX_FENCE ? char.repeat(length) : null;
}

function onlyChar(text: string, char: string): boolean {
  for (let i = 0; i < text.length; i++) if (text[i] !== char) return false;
  return true;
}

/**
 * Code as an indented code block: four spaces before every line, so every line belongs to it and
 * it ends only at the blank line and unindented block that follow it. GitHub shows it as code
 * without a language.
 */
export function indentedBlock(content: string): string {
  return content
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}
