// The end-to-end tier (`npm run test:e2e`): real server processes, redis-server, Chromium, the
// container and the packed install. Its suites mostly wait on those processes, so it runs more
// workers than the machine has cores; each world has its own ports, directories and servers.
import { base } from "./jest.config.js";

export default {
  ...base,
  roots: ["<rootDir>/test/e2e"],
  maxWorkers: 4,
  // Every file in a fresh worker process: a file that starts Probot's own Server (the dashboard
  // test) left process-wide state behind that made a later file's Probot harness get its
  // provider answers from somewhere other than its scripted provider (seen in one worker,
  // in-band). A limit this low recycles the worker after each file.
  workerIdleMemoryLimit: "1MB",
};
