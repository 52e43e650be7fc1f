// The setup flow's guards as pure parts: which Host the page answers to, the per-browser state
// (issued, bound to its cookie, spent once, expiring on an injected clock, bounded), and whether
// credentials already exist so that no callback may replace them.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";
import { checkSetupHost } from "../../../src/setup/allowed-host.ts";
import { credentialsExist } from "../../../src/setup/setup-callback.ts";
import {
  createSetupStates,
  readCookie,
  STATE_COOKIE,
  STATE_TTL_MS,
  stateCookie,
} from "../../../src/setup/setup-state.ts";

const PUBLIC = "https://loupe.example.com/base";

describe("checkSetupHost", () => {
  it.each([
    ["localhost:3000", "http://localhost:3000"],
    ["127.0.0.1:3000", "http://127.0.0.1:3000"],
    ["[::1]:3000", "http://[::1]:3000"],
    ["LocalHost:3000", "http://localhost:3000"],
    ["localhost:8080", "http://localhost:8080"], // an SSH tunnel or a container's port mapping
    ["localhost", "http://localhost"],
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
    ["loupe.example.com:8443", PUBLIC],
    ["loupe.example.com", null],
    ["127.0.0.2:3000", null],
    ["0.0.0.0:3000", null],
  ])("refuses %s (public URL %s) with 421 and where to go", (host, publicUrl) => {
    const check = checkSetupHost(host, 3000, publicUrl);
    expect(check).toMatchObject({ ok: false, status: 421 });
    if (!check.ok) expect(check.problem).toContain("http://localhost:3000/");
  });

  it("refuses a Host that is not a host name with 400", () => {
    for (const host of [undefined, "", "a b", "x:y", "evil.example/path"]) {
      expect(checkSetupHost(host, 3000, null)).toMatchObject({ ok: false, status: 400 });
    }
  });
});

describe("the setup state", () => {
  const cookieOf = (state: string) => `other=1; ${STATE_COOKIE}=${state}`;

  it("is one per browser, kept while it is pending, and in an HttpOnly, SameSite=Lax cookie", () => {
    const states = createSetupStates();
    const first = states.issue(undefined);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(states.issue(cookieOf(first))).toBe(first);
    expect(states.issue(cookieOf("not-one-of-ours"))).not.toBe(first);
    expect(stateCookie(first, false)).toBe(
      `${STATE_COOKIE}=${first}; HttpOnly; SameSite=Lax; Path=/; Max-Age=3600`,
    );
    expect(stateCookie(first, true)).toMatch(/; Secure$/);
    expect(readCookie(cookieOf(first), STATE_COOKIE)).toBe(first);
  });

  it("accepts a callback whose cookie holds the same state, once", () => {
    const states = createSetupStates();
    const state = states.issue(undefined);
    expect(states.consume(cookieOf(state), state)).toBe("ok");
    expect(states.consume(cookieOf(state), state)).toBe("unknown");
  });

  it("refuses a missing or different cookie, and spends the state all the same", () => {
    const states = createSetupStates();
    const a = states.issue(undefined);
    const b = states.issue(undefined);
    expect(states.consume(cookieOf(b), a)).toBe("mismatch");
    expect(states.consume(cookieOf(a), a)).toBe("unknown");
    expect(states.consume(undefined, b)).toBe("no_cookie");
    expect(states.consume(cookieOf(b), b)).toBe("unknown");
    expect(states.consume(cookieOf("x"), null)).toBe("unknown");
  });

  it("expires on its clock", () => {
    let now = 1_000;
    const states = createSetupStates({ now: () => now });
    const state = states.issue(undefined);
    now += STATE_TTL_MS;
    expect(states.issue(cookieOf(state))).not.toBe(state); // expired: a new one
    expect(states.consume(cookieOf(state), state)).toBe("unknown");
  });

  it("keeps a bounded number pending: the oldest go first", () => {
    const states = createSetupStates();
    const oldest = states.issue(undefined);
    const newer = Array.from({ length: 50 }, () => states.issue(undefined));
    expect(states.consume(cookieOf(oldest), oldest)).toBe("unknown");
    expect(states.consume(cookieOf(newer[0]!), newer[0]!)).toBe("ok");
  });
});

describe("credentialsExist", () => {
  it("sees an App in the environment or in .env, and an unreadable .env as one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-setup-creds-"));
    try {
      const envFile = path.join(dir, ".env");
      expect(credentialsExist({}, envFile)).toBe(false);
      expect(credentialsExist({ PRIVATE_KEY_PATH: "/k.pem" }, envFile)).toBe(true);
      fs.writeFileSync(envFile, "APP_ID=\nGH_ORG=octo\n");
      expect(credentialsExist({}, envFile)).toBe(false); // a copied .env.example sets nothing
      fs.writeFileSync(envFile, "APP_ID=42\n");
      expect(credentialsExist({}, envFile)).toBe(true);
      expect(credentialsExist({}, dir)).toBe(true); // a directory: not readable as a file
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
