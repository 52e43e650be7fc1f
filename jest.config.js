// The fast tier (`npm test`): the unit and integration suites, CPU-bound, two workers on two cores.
// A worker runs file after file: nothing in these suites leaves process-wide state behind (the
// one file that did is end-to-end, see jest.e2e.config.js).
// Native ESM mode (NODE_OPTIONS=--experimental-vm-modules): probot 14 and nock 15 are ESM-only.
// @swc/jest only strips types; `tsc --noEmit` type-checks separately (TypeScript 7 has no JS API).
export const base = {
  testEnvironment: "node",
  rootDir: import.meta.dirname,
  testMatch: ["**/*.test.ts"],
  extensionsToTreatAsEsm: [".ts"],
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      { jsc: { parser: { syntax: "typescript" }, target: "es2023" }, module: { type: "es6" } },
    ],
  },
  testTimeout: 60000,
  reporters: ["default", "<rootDir>/test/support/summary-reporter.js"],
};

export default {
  ...base,
  roots: ["<rootDir>/test/unit", "<rootDir>/test/integration"],
  maxWorkers: 2,
};
