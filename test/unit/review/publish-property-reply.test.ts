// Generated inputs through the renderers of Loupe's replies in its review threads (see
// publish-property.ts), in a file of their own so jest can run it beside the others.

import { expect, it } from "@jest/globals";
import { propertySeed } from "../../support/property-runs.ts";
import { firstFailure, PROPERTY_CASES } from "../../support/publish-property.ts";
import { PUBLISH_RENDERERS } from "../../support/publish-renderers.ts";

it.each(PUBLISH_RENDERERS.filter((r) => r.name.startsWith("thread reply")).map((r) => [r.name, r] as const))(
  `%s stays inert for ${PROPERTY_CASES} generated inputs`,
  (name, renderer) => {
    expect(firstFailure(renderer, propertySeed(0x4e91 + name.length))).toBeNull();
  },
);
