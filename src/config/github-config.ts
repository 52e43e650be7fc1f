// How Loupe's App talks to GitHub's API. GITHUB_WRITE_SPACING_MS: the least time between two writes
// (a review, a check run update, a comment) of the process, 1000 ms by default as Probot spaces
// them to stay clear of GitHub's secondary rate limits. A GitHub Enterprise Server with raised
// limits may lower it; the test worlds lower it so a review does not wait a second per write.

import * as v from "valibot";
import { integerVar } from "./env-fields.ts";

export const GitHubConfigSchema = v.pipe(
  v.object({
    GITHUB_WRITE_SPACING_MS: integerVar("GITHUB_WRITE_SPACING_MS", 0, 60_000, 1000),
  }),
  v.transform((env) => ({ writeSpacingMs: env.GITHUB_WRITE_SPACING_MS })),
);
