// GitHub's words for Loupe's texts: the check run's "Re-run review" button, pull requests.

import type { ForgeWords } from "../../domain/forge-words.ts";
import { RERUN_ACTION } from "./check-run.ts";

export const GITHUB_WORDS: ForgeWords = {
  forge: "GitHub",
  change: "pull request",
  settingsFile: "`.github/loupe.yml`",
  report: "the check run",
  rerun: { verb: "press", control: RERUN_ACTION.label, kind: "button" },
  rerunTitle: "press Re-run",
  besideCommand: "the Re-run button",
  showsConclusion: true,
};
