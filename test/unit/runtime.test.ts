import { expect, it } from "@jest/globals";

// The project brings its own Node 24 (the npm package `node`); machines ship Node 20.
it("runs the tests on Node 24 or newer", () => {
  expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(24);
});
