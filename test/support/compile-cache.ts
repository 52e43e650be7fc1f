// Node's compile cache for the Loupe processes a test starts with an environment of its own (the
// server, the Action's entry): starting one compiles most of Loupe's modules and their
// dependencies again, about half of a start's CPU, and the end-to-end worlds start many. The
// cache holds V8's compiled code keyed by each file's content and Node's version, so a changed
// module is compiled afresh; what a process does is the same with it or without it. jest.config.js
// sets NODE_COMPILE_CACHE for the whole run (its workers inherit it); without it, none is passed.

/** `{ NODE_COMPILE_CACHE }` when the run has one, else nothing. */
export function compileCacheEnv(): Record<string, string> {
  const dir = process.env.NODE_COMPILE_CACHE;
  return dir === undefined || dir === "" ? {} : { NODE_COMPILE_CACHE: dir };
}
