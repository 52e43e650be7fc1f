// A repository worker script for tests: the real worker (serve-work.ts), except that the review
// loop of a pull request whose title starts with "[spin]" never yields — synchronous work that no
// timer, signal or message inside the worker can interrupt, as a hostile input to an unbounded
// algorithm would be. Only the server's thread can end it, by terminating the worker.

import { serveRepositoryWork } from "../../src/isolation/serve-work.ts";

function spinForever(): never {
  let turns = 0;
  while (turns >= 0) turns = (turns + 1) % Number.MAX_SAFE_INTEGER;
  throw new Error("unreachable");
}

serveRepositoryWork((real) => ({
  ...real,
  runLoop: async (input) =>
    input.pullRequest.title?.startsWith("[spin]") === true ? spinForever() : real.runLoop(input),
}));
