// Hard bounds of the repository tools. An operator may lower them; the
// schemas advertised to the model stay the protocol's, so a lower limit clamps rather than rejects.

export interface ToolLimits {
  /** Serialized (JSON-escaped, UTF-8) size of one tool result. */
  readonly maxResultBytes: number;
  readonly maxReadLines: number;
  /** Files above this size are refused by read/search and described (size, lines) by the diff. */
  readonly maxFileBytes: number;
  readonly maxSearchMatches: number;
  readonly maxListLimit: number;
  /** Upper bound of inspect_git_diff's `max_bytes`. */
  readonly maxDiffBytes: number;
  /** Bytes one search_repository call may read (a search that reaches it says where it stopped). */
  readonly maxSearchBytes: number;
  /** Time one search_repository call may take, in ms (likewise). */
  readonly maxSearchMs: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  maxResultBytes: 64 * 1024,
  maxReadLines: 400,
  maxFileBytes: 1024 * 1024,
  maxSearchMatches: 100,
  maxListLimit: 200,
  maxDiffBytes: 128 * 1024,
  maxSearchBytes: 256 * 1024 * 1024,
  maxSearchMs: 10_000,
};

export function resolveLimits(overrides?: Partial<ToolLimits>): ToolLimits {
  const limits = { ...DEFAULT_TOOL_LIMITS };
  for (const key of Object.keys(limits) as (keyof ToolLimits)[]) {
    const value = overrides?.[key];
    if (value !== undefined) {
      if (!Number.isInteger(value) || value < 1)
        throw new RangeError(`tool limit ${key} must be a positive integer`);
      limits[key] = value;
    }
  }
  return limits;
}
