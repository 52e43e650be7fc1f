// A suggestion in GitLab's words. GitLab's plain ```suggestion replaces only the line its note is
// on (`-0+0`), where GitHub's replaces the comment's whole range: a suggestion on a range would
// replace its last line with the whole range's code. On GitLab a range's suggestion says how many
// lines above the note's line it replaces: ```suggestion:-N+0. Only Loupe's own suggestion blocks
// carry the `suggestion` label (a model's code block never does: review/markdown-serialize.ts).

import type { HostComment } from "../../host/pull-request-host.ts";

const FENCE = /^(`{3,})suggestion[ \t]*$/gm;

export function gitLabSuggestion(comment: HostComment): string {
  if (comment.startLine === undefined || comment.startLine >= comment.line) return comment.body;
  const above = comment.line - comment.startLine;
  return comment.body.replace(FENCE, (_all, fence: string) => `${fence}suggestion:-${above}+0`);
}
