// The local host's words: a change between two commits, reviewed again by running the command.

import type { ForgeWords } from "../../domain/forge-words.ts";

export const LOCAL_WORDS: ForgeWords = {
  forge: "The git server",
  change: "change",
  settingsFile: "`.github/loupe.yml`",
  report: "the review's output",
  rerun: { verb: "run", control: "loupe review", kind: "command" },
  rerunTitle: "run loupe review again",
  besideCommand: null,
  showsConclusion: true,
};
