// Repository guidance: the files a repository writes for AI tools (AGENTS.md, CLAUDE.md, Copilot's
// instructions), read from the default branch, bounded, and handed to the model as labelled,
// untrusted data. The source of the files is a port, so the App reads them through the GitHub API
// and `loupe review` from the base revision of a local repository.

export type GuidanceKind = "agents" | "claude" | "copilot" | "instructions" | "configured";

export interface GuidanceFile {
  readonly path: string;
  readonly kind: GuidanceKind;
  /** The text given to the model (front matter removed), within the per-file and total bounds. */
  readonly text: string;
  /** The file's size in bytes, before any cut. */
  readonly bytes: number;
  readonly truncated: boolean;
  /** For a path-scoped file: the changed files its applyTo matches (at most 20 listed). */
  readonly appliesTo: readonly string[] | null;
  /** How many changed files its applyTo matches, when path-scoped. */
  readonly matchedFiles: number | null;
  /**
   * For an AGENTS.md or CLAUDE.md below the root: its directory. It applies to the changed files
   * under it (`appliesTo`), and for them it takes precedence over the files of directories above.
   */
  readonly directory: string | null;
}

/** A guidance file to read, as found in the repository's listings. */
export interface Candidate {
  readonly path: string;
  readonly kind: GuidanceKind;
  /** A nested AGENTS.md or CLAUDE.md: the directory whose changed files it applies to. */
  readonly directory?: string;
}

export interface GuidanceSkip {
  readonly path: string;
  /** Loupe's own words, e.g. "applies to no changed file". */
  readonly reason: string;
}

export interface Guidance {
  /** false when `.github/loupe.yml` says `guidance: false`. */
  readonly enabled: boolean;
  readonly files: readonly GuidanceFile[];
  readonly skipped: readonly GuidanceSkip[];
}

export interface GuidanceDirEntry {
  readonly name: string;
  readonly type: "file" | "dir" | "other";
}

export type GuidanceRead =
  | { readonly kind: "found"; readonly bytes: Uint8Array }
  | { readonly kind: "missing" }
  | { readonly kind: "too_large"; readonly size: number }
  | { readonly kind: "unreadable"; readonly reason: string };

/** Where guidance files come from: the default branch (App) or the base revision (CLI). */
export interface GuidanceSource {
  /** The entries of a directory ("" is the root); [] when it does not exist. */
  list(dir: string): Promise<readonly GuidanceDirEntry[]>;
  /** A file's bytes, unless it is larger than maxBytes (then nothing is downloaded or inflated). */
  read(path: string, maxBytes: number): Promise<GuidanceRead>;
}

export const GUIDANCE_LIMITS = {
  /** Text given to the model per file; the rest is cut (and the check run says so). */
  fileBytes: 16 * 1024,
  /** Text given to the model for all files together. */
  totalBytes: 48 * 1024,
  /** A file larger than this is not read at all. */
  readBytes: 256 * 1024,
  /** `.github/instructions/*.instructions.md` files considered, in name order. */
  instructionFiles: 20,
  /** Changed files listed per path-scoped file. */
  listedMatches: 20,
  /** Directories of changed files listed in search of a nested AGENTS.md or CLAUDE.md. */
  nestedDirectories: 24,
  /** How deep below the root a nested file is looked for. */
  nestedDepth: 8,
} as const;
