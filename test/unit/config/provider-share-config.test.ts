// The fleet's share of the model provider: unset is no limit; each bad value is one line naming
// its variable, its range and how to go without it.

import { expect, it } from "@jest/globals";
import { ProviderShareSchema } from "../../../src/config/provider-share-config.ts";
import { settingsError, settingsOf } from "../../support/settings.ts";

it("has no limits unless set", () => {
  expect(settingsOf(ProviderShareSchema, {})).toEqual({ maxInFlight: null, tokensPerMinute: null });
  expect(
    settingsOf(ProviderShareSchema, { PROVIDER_MAX_IN_FLIGHT: "4", PROVIDER_TOKENS_PER_MINUTE: "200000" }),
  ).toEqual({ maxInFlight: 4, tokensPerMinute: 200_000 });
});

it.each([
  [{ PROVIDER_MAX_IN_FLIGHT: "0" }, "PROVIDER_MAX_IN_FLIGHT"],
  [{ PROVIDER_MAX_IN_FLIGHT: "two" }, "PROVIDER_MAX_IN_FLIGHT"],
  [{ PROVIDER_TOKENS_PER_MINUTE: "10" }, "PROVIDER_TOKENS_PER_MINUTE"],
])("refuses %j with one line naming the variable and the way back to no limit", (env, name) => {
  const error = settingsError(ProviderShareSchema, env);
  expect(error).toContain(name);
  expect(error).toContain(`unset ${name} for no limit`);
});
