// The setup flow's protections, through a real server process and the fake GitHub's manifest
// flow: only a loopback Host or LOUPE_PUBLIC_URL's host is served (a rebinding DNS name is not).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.ts";
import { type LoupeProcess, startLoupeProcess } from "../support/loupe-process.ts";
import { manifestForm, withHost } from "../support/setup-browser.ts";

let github: FakeGitHub;
const dirs: string[] = [];
const running: LoupeProcess[] = [];

beforeAll(async () => {
  github = await startFakeGitHub();
});

afterAll(async () => {
  for (const loupe of running) await loupe.stop();
  await github?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<{ loupe: LoupeProcess }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-setup-guard-"));
  dirs.push(dir);
  const loupe = await startLoupeProcess({
    command: "node",
    cwd: dir,
    env: { GHE_HOST: github.host, GHE_PROTOCOL: "http", ...env },
  });
  running.push(loupe);
  return { loupe };
}

const redirectUrl = (html: string) => manifestForm(html).manifest.redirect_url;

describe("the setup page's Host", () => {
  it("is served at a loopback name on its port and at LOUPE_PUBLIC_URL's host, and nowhere else", async () => {
    const { loupe } = await start({ LOUPE_PUBLIC_URL: "https://loupe.example.com" });
    const port = loupe.port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      const page = await withHost(loupe.url, host);
      expect(page.status).toBe(200);
      expect(redirectUrl(page.html)).toBe(`http://${host}/setup/callback`);
    }
    for (const host of ["loupe.example.com", "LOUPE.example.com:443"]) {
      const page = await withHost(loupe.url, host);
      expect(page.status).toBe(200);
      expect(redirectUrl(page.html)).toBe("https://loupe.example.com/setup/callback");
    }
    // A name rebound to 127.0.0.1, another port, the public name on another port: refused.
    for (const host of [
      `evil.example:${port}`,
      `localhost:${port + 1}`,
      "loupe.example.com:8443",
      "evil.example",
    ]) {
      const page = await withHost(loupe.url, host);
      expect(page.status).toBe(421);
      expect(page.html).toContain(`http://localhost:${port}/`);
      expect(page.html).not.toContain("manifest");
    }
    const callback = await withHost(loupe.url, `evil.example:${port}`, "/setup/callback?code=abc&state=def");
    expect(callback.status).toBe(421);
    expect((await withHost(loupe.url, "x!y")).status).toBe(400);
    // The operator's probes answer whatever name the orchestrator uses.
    expect((await withHost(loupe.url, `evil.example:${port}`, "/healthz")).status).toBe(200);
  });
});
