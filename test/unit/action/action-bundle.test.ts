// The committed bundle (dist-action/index.js, what action.yml runs) is what the sources build:
// the build is rebuilt in memory and compared byte for byte, and built twice to show it does not
// depend on the run. A stale bundle fails here: run `node scripts/build-action.ts`.

import fs from "node:fs";
import { afterAll, describe, expect, it } from "@jest/globals";
import { stop } from "esbuild";
import { BUNDLE, buildActionBundle } from "../../../scripts/build-action.ts";

// esbuild builds in a service process it starts on first use and keeps for the next build; the
// worker runs other files next, which must not inherit it.
afterAll(() => stop());

describe("the GitHub Action's bundle", () => {
  it("is reproducible, and the committed one is current", async () => {
    const first = await buildActionBundle();
    const second = await buildActionBundle();
    expect(second === first).toBe(true);
    const committed = fs.readFileSync(BUNDLE, "utf8");
    if (committed !== first) {
      throw new Error(
        "dist-action/index.js differs from the sources: run node scripts/build-action.ts and commit it",
      );
    }
  }, 60_000);
});
