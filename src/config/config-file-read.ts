// A configuration file as a host read it: its text, none, or why it cannot be read — the same
// words for the repository's file and the organisation's, whichever forge read them.

export type ConfigFileRead =
  | { readonly kind: "found"; readonly text: string }
  | { readonly kind: "missing" }
  | { readonly kind: "unreadable"; readonly message: string };

/** A configuration file and where it came from, in words (e.g. `.github/loupe.yml on the default branch`). */
export interface ConfigFile {
  readonly file: ConfigFileRead;
  readonly source: string;
}
