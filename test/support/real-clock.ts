// The environment for a process that must keep the machine's real clock during a run with the
// clock moved ahead (test/support/year-ahead.ts): libfaketime's preload removed. redis-server
// cannot start under it (its clock calls recurse into the preload), and keeping Redis on the
// real clock while the app runs a year ahead tests that nothing relies on the two agreeing.

export function realClockEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { LD_PRELOAD: _preload, FAKETIME: _faketime, ...rest } = env;
  return rest;
}
