// The fleet's share of the model provider: how many model requests may be in flight at once and
// how many tokens a minute they may use, across every replica (counted in REDIS_URL's Redis, or in
// this process without one). Unset: no limit. A 429 with Retry-After is shared whatever these say.

import * as v from "valibot";
import { optionalIntegerVar } from "./env-fields.ts";

export const MAX_IN_FLIGHT_LIMIT = 10_000;
export const TOKENS_PER_MINUTE_LIMIT = 1_000_000_000;

export const ProviderShareSchema = v.pipe(
  v.object({
    PROVIDER_MAX_IN_FLIGHT: optionalIntegerVar("PROVIDER_MAX_IN_FLIGHT", 1, MAX_IN_FLIGHT_LIMIT, "no limit"),
    PROVIDER_TOKENS_PER_MINUTE: optionalIntegerVar(
      "PROVIDER_TOKENS_PER_MINUTE",
      1000,
      TOKENS_PER_MINUTE_LIMIT,
      "no limit",
    ),
  }),
  v.transform((env) => ({
    /** Model requests in flight across the fleet at most; null: no limit. */
    maxInFlight: env.PROVIDER_MAX_IN_FLIGHT ?? null,
    /** Tokens the fleet's model requests may use in any minute; null: no limit. */
    tokensPerMinute: env.PROVIDER_TOKENS_PER_MINUTE ?? null,
  })),
);

export type ProviderShare = v.InferOutput<typeof ProviderShareSchema>;
