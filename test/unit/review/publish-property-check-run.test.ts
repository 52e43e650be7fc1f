// Generated inputs through the renderers of check runs (see publish-property.ts).

import { expect, it } from "@jest/globals";
import { propertySeed } from "../../support/property-runs.ts";
import { firstFailure, PROPERTY_CASES } from "../../support/publish-property.ts";
import { PUBLISH_RENDERERS } from "../../support/publish-renderers.ts";

it.each(PUBLISH_RENDERERS.filter((r) => r.name.startsWith("check run")).map((r) => [r.name, r] as const))(
  `%s stays inert for ${PROPERTY_CASES} generated inputs`,
  (name, renderer) => {
    expect(firstFailure(renderer, propertySeed(0x10be + name.length))).toBeNull();
  },
);

// A generated case that once escaped: backslashes before a pipe in a trace table's code span split
// the cell (GFM pairs backslashes before it splits a row). Replayed at its own seed on every run.
it("keeps the check run text inert for the case found at seed 1938685307", () => {
  const renderer = PUBLISH_RENDERERS.find((r) => r.name === "check run text")!;
  expect(firstFailure(renderer, 1938685307, 600)).toBeNull();
});
