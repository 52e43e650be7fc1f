// What `loupe review` reads from its environment: the App's provider, review-limit and budget areas, the
// same schemas, composed the same way (every problem reported together).

import * as v from "valibot";
import { ProviderConfigSchema } from "./provider-config.ts";
import { fanOut } from "./read-env.ts";
import { ReviewLimitsSchema } from "./review-limits.ts";
import { SpendSchema } from "./spend-config.ts";

// The budget area for its prices: the CLI's result shows a review's cost as the App does (its caps
// count an installation's reviews, which the CLI has none of).
const AREAS = { provider: ProviderConfigSchema, limits: ReviewLimitsSchema, budget: SpendSchema };

export const CliSettingsSchema = v.pipe(
  v.record(v.string(), v.string()),
  v.transform(fanOut(Object.keys(AREAS) as (keyof typeof AREAS)[])),
  v.object(AREAS),
);
