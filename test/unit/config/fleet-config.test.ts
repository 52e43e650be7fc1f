import { describe, expect, it } from "@jest/globals";
import { FleetConfigSchema } from "../../../src/config/fleet-config.ts";
import { settingsError, settingsOf } from "../../support/settings.ts";

const readFleetConfig = (env: Record<string, string>) => settingsOf(FleetConfigSchema, env);

describe("the fleet's settings", () => {
  it("is the single process without REDIS_URL, and a 30 s lock by default", () => {
    expect(readFleetConfig({})).toEqual({ redisUrl: null, lockMs: 30_000 });
    expect(readFleetConfig({ REDIS_URL: "  " })).toEqual({ redisUrl: null, lockMs: 30_000 });
  });

  it("takes redis:// and rediss:// URLs and a lock in seconds", () => {
    expect(readFleetConfig({ REDIS_URL: "redis://redis:6379/0", FLEET_LOCK_SECONDS: "5" })).toEqual({
      redisUrl: "redis://redis:6379/0",
      lockMs: 5000,
    });
    expect(readFleetConfig({ REDIS_URL: "rediss://:pw@cache.internal:6380" }).redisUrl).toBe(
      "rediss://:pw@cache.internal:6380",
    );
  });

  it.each([["localhost:6379"], ["http://redis:6379"], ["redis//x"]])(
    "refuses REDIS_URL=%j, naming the variable",
    (value) => {
      const line = settingsError(FleetConfigSchema, { REDIS_URL: value });
      expect(line).toContain("REDIS_URL is not a redis:// or rediss:// URL");
      expect(line).not.toContain(value); // a Redis URL may carry its password
    },
  );

  it("takes a lock in milliseconds below the 5 s floor, over FLEET_LOCK_SECONDS", () => {
    expect(readFleetConfig({ FLEET_LOCK_MS: "1500", FLEET_LOCK_SECONDS: "60" }).lockMs).toBe(1500);
    expect(readFleetConfig({ FLEET_LOCK_MS: "" }).lockMs).toBe(30_000);
  });

  it.each([["999"], ["300001"], ["2s"]])("refuses FLEET_LOCK_MS=%j", (value) => {
    expect(settingsError(FleetConfigSchema, { FLEET_LOCK_MS: value })).toContain(
      `FLEET_LOCK_MS="${value}" is not an integer from 1000 to 300000: set one, or unset FLEET_LOCK_MS for FLEET_LOCK_SECONDS`,
    );
  });

  it.each([["4"], ["301"], ["ten"], ["-5"], ["5.5"]])("refuses FLEET_LOCK_SECONDS=%j", (value) => {
    expect(settingsError(FleetConfigSchema, { FLEET_LOCK_SECONDS: value })).toContain(
      `FLEET_LOCK_SECONDS="${value}" is not an integer from 5 to 300`,
    );
  });
});
