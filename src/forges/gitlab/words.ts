// GitLab's words for Loupe's texts: merge requests, and the review command in place of a button
// (a commit status has none). The commit status shows its own state, so the summary note names
// no check run's conclusion beside it.

import type { ForgeWords } from "../../domain/forge-words.ts";
import { GITLAB_CONFIG_PATHS } from "./repository-files.ts";

/** `username`: the token's user, whom the command mentions; null when GitLab did not say who it is. */
export function gitLabWords(username: string | null): ForgeWords {
  const command = username === null ? "review" : `@${username} review`;
  return {
    forge: "GitLab",
    change: "merge request",
    // The first of the files GitLab reads, and the one it falls back to (repository-files.ts).
    settingsFile: `\`${GITLAB_CONFIG_PATHS[0]}\` (or \`${GITLAB_CONFIG_PATHS[1]}\`)`,
    report: "the summary note",
    rerun:
      username === null
        ? { verb: "mention Loupe's user with", control: command, kind: "command" }
        : { verb: "comment", control: command, kind: "command" },
    rerunTitle: username === null ? "mention Loupe with review" : `comment ${command}`,
    besideCommand: null,
    showsConclusion: false,
  };
}

/** In a merge request pipeline (the CI/CD component) no server reads commands: the job is retried. */
export const GITLAB_CI_WORDS: ForgeWords = {
  ...gitLabWords(null),
  rerun: { verb: "retry", control: "the Loupe job of this pipeline", kind: "step" },
  rerunTitle: "retry the job",
};
