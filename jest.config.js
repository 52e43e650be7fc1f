// Native ESM mode (NODE_OPTIONS=--experimental-vm-modules): probot 14 and nock 15 are ESM-only.
// @swc/jest only strips types; `tsc --noEmit` type-checks separately (TypeScript 7 has no JS API).
export default {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
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
