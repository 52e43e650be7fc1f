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
  // Two workers on a two-core machine (jest's default is one fewer than the cores): most of the
  // end-to-end suites wait on servers, GitHub's write pacing and timers, so one worker left a core
  // idle for most of the run (measured: 18 min with one, see the note in bench/README.md).
  maxWorkers: 2,
  reporters: ["default", "<rootDir>/test/support/summary-reporter.js"],
};
