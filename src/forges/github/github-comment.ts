// One inline comment in the words of GitHub's review API. Pure and light, so the CLI can show what
// the App would post without loading the publishing client and its dependencies.

import type { HostComment } from "../../host/pull-request-host.ts";

export interface InlineComment {
  readonly path: string;
  readonly body: string;
  readonly line: number;
  readonly side: "RIGHT";
  readonly start_line?: number;
  readonly start_side?: "RIGHT";
}

/** The port's comment in the words of GitHub's review API: every line on the head's side. */
export function gitHubComment(comment: HostComment): InlineComment {
  const { path, line, body, startLine } = comment;
  return {
    path,
    line,
    side: "RIGHT",
    body,
    ...(startLine === undefined ? {} : { start_line: startLine, start_side: "RIGHT" as const }),
  };
}
