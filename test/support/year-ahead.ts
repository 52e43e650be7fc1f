// Runs a command with the wall clock a year ahead, to prove the suite does not depend on the day
// it runs: a test that fixes a date, or compares a date it computed with another process's real
// clock, fails here on the day it was written instead of a year later. libfaketime moves the
// wall clock of the command and every process it starts; monotonic clocks are left alone, so
// timers, timeouts and measured durations behave as usual. Processes that libfaketime cannot run
// (redis-server) are started with the real clock (test/support/real-clock.ts), which is itself the
// point: the app's clock and Redis's then disagree by a year, as two machines' clocks may.
//
//   node test/support/year-ahead.ts npm test      # npm run test:deep does this

import { spawnSync } from "node:child_process";
import { requireProgram } from "./programs.ts";

export const CLOCK_AHEAD_DAYS = 365;

if (import.meta.main) {
  const faketime = requireProgram("faketime");
  const run = spawnSync(faketime, ["-f", `+${CLOCK_AHEAD_DAYS}d`, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: {
      ...process.env,
      FAKETIME_DONT_FAKE_MONOTONIC: "1",
      LOUPE_CLOCK_AHEAD_DAYS: String(CLOCK_AHEAD_DAYS),
    },
  });
  process.exitCode = run.status ?? 1;
}
