// The bounds on one pattern of `.github/loupe.yml` (`paths.include`/`exclude`), in one place for
// the check that refuses a pattern and the compiler that relies on it having been refused.

export const GLOB_LIMITS = { length: 256, wildcards: 32, alternatives: 64 } as const;
