// The deep run (npm run test:deep) moves the wall clock a year ahead so that a test depending on
// the day it runs fails at once. This proves the move happened: without it the deep run would
// quietly prove nothing. In a run at the real date there is nothing to prove, and it says so.

import { execFileSync } from "node:child_process";
import { expect, it } from "@jest/globals";
import { realClockEnv } from "../../support/real-clock.ts";

const aheadDays = Number(process.env.LOUPE_CLOCK_AHEAD_DAYS ?? "0");

it("runs with the clock moved ahead exactly as far as the deep run says", () => {
  const machineSeconds = Number(
    execFileSync("date", ["+%s"], { encoding: "utf8", env: realClockEnv() }).trim(),
  );
  const days = (Date.now() / 1000 - machineSeconds) / 86_400;
  expect(Math.round(days)).toBe(aheadDays);
});
