// Two tiers as jest projects, so that `npx jest <any test file>` still finds its file:
// - fast (`npm test`): the unit and integration suites, CPU-bound, two workers on two cores;
// - e2e (`npm run test:e2e`): real server processes, redis-server, Chromium, the container and the
//   packed install. Its suites mostly wait on those processes, so it runs four workers on two
//   cores; each world has its own ports, directories and servers.
// Native ESM mode (NODE_OPTIONS=--experimental-vm-modules): probot 14 and nock 15 are ESM-only.
// @swc/jest only strips types; `tsc --noEmit` type-checks separately (TypeScript 7 has no JS API).
const project = (displayName, roots) => ({
  displayName,
  testEnvironment: "node",
  roots,
  testMatch: ["**/*.test.ts"],
  extensionsToTreatAsEsm: [".ts"],
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      { jsc: { parser: { syntax: "typescript" }, target: "es2023" }, module: { type: "es6" } },
    ],
  },
});

export default {
  projects: [
    project("fast", ["<rootDir>/test/unit", "<rootDir>/test/integration"]),
    project("e2e", ["<rootDir>/test/e2e"]),
  ],
  testTimeout: 60000,
  // Every test file in a fresh worker process, in both tiers. A file that starts Probot's own
  // Server (the e2e dashboard test) left process-wide state behind that made a later file's
  // Probot harness get its provider answers from somewhere other than its scripted provider;
  // and with one worker reused, test/integration/app-thread-replies fails after eval-command
  // has run in it (its GitHub requests answered from somewhere other than its nock scope), and
  // passes alone. Until those leaks are found the restart (about 0.4 s a file) stays: a limit
  // this low recycles the worker after each file.
  workerIdleMemoryLimit: "1MB",
  reporters: ["default", "<rootDir>/test/support/summary-reporter.js"],
};
