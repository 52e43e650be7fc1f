// What `loupe review` reads from its environment: the App's provider and review-limit areas, the
// same schemas, composed the same way (every problem reported together).

import * as v from "valibot";
import { ProviderConfigSchema } from "./provider-config.ts";
import { fanOut } from "./read-env.ts";
import { ReviewLimitsSchema } from "./review-limits.ts";

const AREAS = { provider: ProviderConfigSchema, limits: ReviewLimitsSchema };

export const CliSettingsSchema = v.pipe(
  v.record(v.string(), v.string()),
  v.transform(fanOut(Object.keys(AREAS) as (keyof typeof AREAS)[])),
  v.object(AREAS),
);

export type CliSettings = v.InferOutput<typeof CliSettingsSchema>;
