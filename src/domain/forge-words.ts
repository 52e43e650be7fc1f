// How a text Loupe publishes names the place it is published in. Each forge gives its own words;
// the texts below the forges (the pipeline's notes, the report, a failure's sentence) take them
// as a value and name no forge themselves, so a GitLab note never says "GitHub" or "check run".

export interface ForgeWords {
  /** Who answered, or did not: "GitHub". */
  readonly forge: string;
  /** What a change under review is called: "pull request". */
  readonly change: string;
  /** Where the repository's settings are, as a code span: "`.github/loupe.yml`". */
  readonly settingsFile: string;
  /** Where a review says how it went (its scope, why it was whole): "the check run". */
  readonly report: string;
  /** How a person asks for the review again: a button to press, a command to comment, or a plain step. */
  readonly rerun: {
    readonly verb: string;
    readonly control: string;
    readonly kind: "button" | "command" | "step";
  };
  /** The same, short enough for a title: "press Re-run". */
  readonly rerunTitle: string;
  /** A way to ask for a review beside the review command ("the Re-run button"), or null: none. */
  readonly besideCommand: string | null;
  /** The report shows the conclusion (a check run's); a commit status shows its own state instead. */
  readonly showsConclusion: boolean;
}

/** The rerun as Markdown, starting with a capital: "Press **Re-run review**". */
export function rerunMarkdown(words: ForgeWords): string {
  const { verb, control, kind } = words.rerun;
  const shown = kind === "button" ? `**${control}**` : kind === "command" ? `\`${control}\`` : control;
  return `${verb.charAt(0).toUpperCase()}${verb.slice(1)} ${shown}`;
}
