// LOG_STILL_DOWN_SECONDS as the server reads it: a minute by default, seconds otherwise, and a
// value out of its range or not a whole number is a configuration error naming the variable.

import { describe, expect, it } from "@jest/globals";
import { readStillDownLogMs } from "../../src/config/still-down-config.ts";

describe("LOG_STILL_DOWN_SECONDS", () => {
  it("is a minute unless set, and seconds when set", () => {
    expect(readStillDownLogMs({})).toBe(60_000);
    expect(readStillDownLogMs({ LOG_STILL_DOWN_SECONDS: " " })).toBe(60_000);
    expect(readStillDownLogMs({ LOG_STILL_DOWN_SECONDS: "5" })).toBe(5_000);
  });

  it.each(["0", "3601", "1.5", "-1", "ten"])("refuses %s", (value) => {
    expect(() => readStillDownLogMs({ LOG_STILL_DOWN_SECONDS: value })).toThrow(/LOG_STILL_DOWN_SECONDS/);
  });
});
