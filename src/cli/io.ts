// What a CLI command writes to and reads from, injected so a command runs the same in a test.

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  /** true when stderr is a terminal: a person is watching, and progress is worth printing. */
  readonly stderrIsTerminal?: boolean;
}
