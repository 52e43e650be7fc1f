// The setup flow's guards as pure parts: which Host the page answers to.

import { describe, expect, it } from "@jest/globals";
import { checkSetupHost } from "../../src/setup/allowed-host.ts";

const PUBLIC = "https://loupe.example.com/base";

describe("checkSetupHost", () => {
  it.each([
    ["localhost:3000", "http://localhost:3000"],
    ["127.0.0.1:3000", "http://127.0.0.1:3000"],
    ["[::1]:3000", "http://[::1]:3000"],
    ["LocalHost:3000", "http://localhost:3000"],
    ["loupe.example.com", "https://loupe.example.com"],
    ["loupe.example.com:443", "https://loupe.example.com"],
  ])("serves %s", (host, baseUrl) => {
    expect(checkSetupHost(host, 3000, PUBLIC)).toEqual({
      ok: true,
      baseUrl,
      secure: baseUrl.startsWith("https:"),
    });
  });

  it.each([
    ["evil.example:3000", PUBLIC],
    ["localhost:3001", PUBLIC],
    ["localhost", PUBLIC], // port 80 implied, but the server is on 3000
    ["loupe.example.com:8443", PUBLIC],
    ["loupe.example.com", null],
    ["127.0.0.2:3000", null],
    ["0.0.0.0:3000", null],
  ])("refuses %s (public URL %s) with 421 and where to go", (host, publicUrl) => {
    const check = checkSetupHost(host, 3000, publicUrl);
    expect(check).toMatchObject({ ok: false, status: 421 });
    if (!check.ok) expect(check.problem).toContain("http://localhost:3000/");
  });

  it("refuses a Host that is not a host name with 400, and serves port 80 without a port", () => {
    for (const host of [undefined, "", "a b", "x:y", "evil.example/path"]) {
      expect(checkSetupHost(host, 3000, null)).toMatchObject({ ok: false, status: 400 });
    }
    expect(checkSetupHost("localhost", 80, null)).toMatchObject({ ok: true, baseUrl: "http://localhost" });
  });
});
