// DASHBOARD_USER / DASHBOARD_PASSWORD: no password, no dashboard; a bad value is a clear error.
// And the Basic credential check the dashboard applies to every request.

import { describe, expect, it } from "@jest/globals";
import { DashboardSchema } from "../../../src/config/dashboard-config.ts";
import { basicAuthorized } from "../../../src/dashboard/basic-auth.ts";
import { settingsError, settingsOf } from "../../support/settings.ts";

const readDashboardCredentials = (env: Record<string, string>) => settingsOf(DashboardSchema, env);
const configError = (env: Record<string, string>) => settingsError(DashboardSchema, env);

const PASSWORD = "0123456789abcdef-long";

describe("the dashboard's credentials", () => {
  it("are absent (no dashboard) without a password, and default the user to loupe", () => {
    expect(readDashboardCredentials({})).toBeNull();
    expect(readDashboardCredentials({ DASHBOARD_PASSWORD: ` ${PASSWORD} ` })).toEqual({
      user: "loupe",
      password: PASSWORD,
    });
    expect(readDashboardCredentials({ DASHBOARD_USER: "ops", DASHBOARD_PASSWORD: PASSWORD })).toEqual({
      user: "ops",
      password: PASSWORD,
    });
  });

  it("refuse a user without a password, a short or spaced password, and a user with ':'", () => {
    expect(configError({ DASHBOARD_USER: "ops" })).toMatch(
      /DASHBOARD_USER is set without DASHBOARD_PASSWORD/,
    );
    for (const password of ["short-password", "has a space in the middle", "x".repeat(201)]) {
      expect(configError({ DASHBOARD_PASSWORD: password })).toMatch(
        /DASHBOARD_PASSWORD must be 16 to 200 printable characters/,
      );
    }
    for (const user of ["a:b", "two words", "é"]) {
      expect(configError({ DASHBOARD_USER: user, DASHBOARD_PASSWORD: PASSWORD })).toMatch(
        /DASHBOARD_USER must be at most 200 printable characters/,
      );
    }
  });
});

describe("Basic authorization", () => {
  const credentials = { user: "ops", password: PASSWORD };
  const header = (text: string) => `Basic ${Buffer.from(text, "utf8").toString("base64")}`;

  it("accepts exactly the user and password, a password holding ':' included", () => {
    expect(basicAuthorized(header(`ops:${PASSWORD}`), credentials)).toBe(true);
    expect(
      basicAuthorized(`basic   ${Buffer.from(`ops:${PASSWORD}`).toString("base64")}  `, credentials),
    ).toBe(true);
    const colon = { user: "ops", password: "with:colon:inside-0123" };
    expect(basicAuthorized(header("ops:with:colon:inside-0123"), colon)).toBe(true);
  });

  it("refuses anything else", () => {
    for (const value of [
      undefined,
      "",
      header(`ops:${PASSWORD}x`),
      header(`ops:${PASSWORD.slice(0, -1)}`),
      header(`Ops:${PASSWORD}`),
      header(`:${PASSWORD}`),
      header(`ops${PASSWORD}`),
      header("ops:"),
      `Bearer ${PASSWORD}`,
      "Basic !!!!",
      `Basic ${Buffer.from(`ops:${PASSWORD}`).toString("base64")} extra`,
    ]) {
      expect({ value, ok: basicAuthorized(value, credentials) }).toEqual({ value, ok: false });
    }
  });
});
