// Two tiers as jest projects, so that `npx jest <any test file>` still finds its file:
// - fast (`npm test`): the unit and integration suites, three workers on two cores: with two, the
//   machine was 130 % busy of 200 % (files that wait on a deadline or a child process leave their
//   core idle); with three, 3:05 instead of 5:09 and 349 s of CPU instead of 400, the machine
//   187 % busy; a fourth gains nothing (bench/README.md, round 4);
// - e2e (`npm run test:e2e`): real server processes, redis-server, Chromium, the container and the
//   packed install. Its suites mostly wait on those processes, so it runs four workers on two
//   cores; each world has its own ports, directories and servers.
// Native ESM mode (NODE_OPTIONS=--experimental-vm-modules): probot 14 and nock 15 are ESM-only.
// @swc/jest only strips types; `tsc --noEmit` type-checks separately (TypeScript 7 has no JS API).
import os from "node:os";
import path from "node:path";

const project = (displayName, roots) => ({
  displayName,
  // CPU accounting, and a file that leaves a program running fails (test/support/test-environment.js).
  testEnvironment: "<rootDir>/test/support/test-environment.js",
  roots,
  testMatch: ["**/*.test.ts"],
  setupFilesAfterEnv: ["<rootDir>/test/support/restore-network.ts"],
  extensionsToTreatAsEsm: [".ts"],
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      {
        // Import attributes kept: Node needs `with { type: "json" }` on a JSON module (the SARIF schema).
        jsc: {
          parser: { syntax: "typescript" },
          target: "es2023",
          experimental: { keepImportAttributes: true },
        },
        module: { type: "es6" },
      },
    ],
  },
});

// The fast tier reuses each worker from file to file: every file restores what it changed in the
// worker process (test/support/restore-network.ts). Jest's ESM mode keeps part of each file's
// modules alive, so a worker's heap grows by a few MB a file; past 128 MB it is replaced, since the
// garbage collector's pauses grow with it and count in the suites that measure event-loop blocks
// (at 256 MB, about 30 files a worker, one such suite measured 103 ms against its 100 ms bound).
// The end-to-end tier gives every file a fresh worker (a limit this low recycles it after each
// file). Its files do restore what they change (jest gives each its own process.env; none uses
// fake timers, process handlers or a global dispatcher; nock is restored as above; a file that
// leaves a program running fails, test/support/test-environment.js), but reusing its workers
// saved no CPU measurably (bench/README.md, round 3): its cost is the programs it starts.

// Node's compile cache for every process of the run: the jest workers (jest's own modules) and
// the Loupe processes the tests start (test/support/compile-cache.ts passes it to those started
// with an environment of their own). Node's own default place, where `loupe` keeps it too.
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), "node-compile-cache");

const e2eTier = process.argv.some(
  (arg, at) =>
    arg === "--selectProjects=e2e" || (arg === "--selectProjects" && process.argv[at + 1] === "e2e"),
);

export default {
  projects: [
    project("fast", ["<rootDir>/test/unit", "<rootDir>/test/integration"]),
    project("e2e", ["<rootDir>/test/e2e"]),
    project("drift", ["<rootDir>/test/drift"]),
  ],
  testTimeout: 60000,
  workerIdleMemoryLimit: e2eTier ? "1MB" : "128MB",
  reporters: [
    "default",
    "<rootDir>/test/support/timing-reporter.js",
    "<rootDir>/test/support/summary-reporter.js",
  ],
};
