// A repository worker script for tests: the real worker (serve-work.ts), except that the review
// loop of a pull request whose title starts with "[spin]" never yields — synchronous work that no
// timer, signal or message inside the worker can interrupt, as a hostile input to an unbounded
// algorithm would be. Only the server's thread can end it, by terminating the worker.
// It blocks in Atomics.wait on a value nothing changes rather than counting in a loop: to the
// worker's event loop the two are the same (nothing else in the thread runs again), but a counting
// loop burned a whole core for every second of the test's deadline, beside the reviews it checks.

import { serveRepositoryWork } from "../../src/isolation/serve-work.ts";

function spinForever(): never {
  const never = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(never, 0, 0);
}

serveRepositoryWork((real) => ({
  ...real,
  runLoop: async (input) =>
    input.pullRequest.title?.startsWith("[spin]") === true ? spinForever() : real.runLoop(input),
}));
