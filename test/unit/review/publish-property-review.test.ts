// Generated inputs through the renderers of review comments and bodies (see publish-property.ts).

import { expect, it } from "@jest/globals";
import { propertySeed } from "../../support/property-runs.ts";
import { firstFailure, PROPERTY_CASES } from "../../support/publish-property.ts";
import { PUBLISH_RENDERERS } from "../../support/publish-renderers.ts";

it.each(
  PUBLISH_RENDERERS.filter((r) => ["inline comment", "review body", "CLI markdown"].includes(r.name)).map(
    (r) => [r.name, r] as const,
  ),
)(`%s stays inert for ${PROPERTY_CASES} generated inputs`, (name, renderer) => {
  expect(firstFailure(renderer, propertySeed(0x10be + name.length))).toBeNull();
});
