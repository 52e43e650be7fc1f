// The contract between the tool loop and the four read-only repository tools. A tool never
// throws for anything the model or the repository can cause: it answers with a ToolResult.

export const TOOL_NAMES = [
  "list_repository_files",
  "read_repository_file",
  "search_repository",
  "inspect_git_diff",
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

export type ToolErrorCode =
  | "invalid_path"
  | "path_not_found"
  | "path_outside_repository"
  | "path_is_directory"
  | "not_a_directory"
  | "not_a_regular_file"
  | "binary_file"
  | "file_too_large"
  | "invalid_range"
  | "invalid_cursor"
  | "result_too_large"
  | "internal_error"
  // Added with the tools (additive): a symlink chain longer than 40 hops, arguments that reached
  // execute() without passing parseArguments, and a call stopped by the review's AbortSignal.
  | "symlink_loop"
  | "invalid_arguments"
  | "cancelled";

export type ToolSuccess = { readonly ok: true } & Readonly<Record<string, unknown>>;
export interface ToolFailure {
  readonly ok: false;
  readonly error: { readonly code: ToolErrorCode; readonly message: string };
}
export type ToolResult = ToolSuccess | ToolFailure;

/** The JSON sent to the model in `tools`: exactly the protocol's shape. */
export interface ToolSchemaForModel {
  readonly type: "function";
  readonly function: {
    readonly name: ToolName;
    readonly description: string;
    readonly parameters: Readonly<Record<string, unknown>>;
  };
}

/** Why a call's arguments were rejected (a protocol error: the round is not executed). */
export interface ArgumentRejection {
  readonly ok: false;
  readonly message: string;
}

export interface ToolExecution {
  readonly result: ToolResult;
  /** The compact JSON string that becomes the tool message's content (≤ the result cap). */
  readonly content: string;
  readonly durationMs: number;
}

export interface ToolRegistry {
  readonly schemas: readonly ToolSchemaForModel[];
  isToolName(name: string): name is ToolName;
  /** Strict validation of already-parsed JSON arguments; defaults are applied on success. */
  parseArguments(
    name: ToolName,
    raw: unknown,
  ): { readonly ok: true; readonly args: unknown } | ArgumentRejection;
  /** Runs a call whose arguments passed parseArguments. */
  execute(name: ToolName, args: unknown, signal?: AbortSignal): Promise<ToolExecution>;
}
