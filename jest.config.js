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
  // Every test file in a fresh worker process: a file that starts Probot's own Server (the e2e
  // dashboard test) left process-wide state behind that made a later file's Probot harness get
  // its provider answers from somewhere other than its scripted provider (seen in one worker,
  // in-band). A limit this low recycles the worker after each file, and any limit makes jest use
  // workers even with one core to spare.
  workerIdleMemoryLimit: "1MB",
  reporters: ["default", "<rootDir>/test/support/summary-reporter.js"],
};
