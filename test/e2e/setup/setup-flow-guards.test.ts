// The setup flow's protections, through a real server process and the fake GitHub's manifest
// flow: only a loopback Host or LOUPE_PUBLIC_URL's host is served (a rebinding DNS name is not);
// a callback is accepted only from the browser that started the registration (its cookie) and
// only once, even when its exchange failed; and once an App is registered no callback can swap it
// for another, not even one a second browser started earlier.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { manifestForm, setupBrowser, withHost } from "../../support/setup-browser.ts";

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

async function start(env: Record<string, string> = {}): Promise<{ loupe: LoupeProcess; envFile: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-setup-guard-"));
  dirs.push(dir);
  const loupe = await startLoupeProcess({
    command: "node",
    cwd: dir,
    env: { GHE_HOST: github.host, GHE_PROTOCOL: "http", ...env },
  });
  running.push(loupe);
  return { loupe, envFile: path.join(dir, ".env") };
}

const redirectUrl = (html: string) => manifestForm(html).manifest.redirect_url;

describe("the setup page's Host", () => {
  it("is served at a loopback name and at LOUPE_PUBLIC_URL's host, and nowhere else", async () => {
    const { loupe } = await start({ LOUPE_PUBLIC_URL: "https://loupe.example.com" });
    const port = loupe.port;
    // Another port on a loopback name: an SSH tunnel (ssh -L 8080:localhost:PORT) or a port mapping.
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "localhost:8080"]) {
      const page = await withHost(loupe.url, host);
      expect(page.status).toBe(200);
      expect(redirectUrl(page.html)).toBe(`http://${host}/setup/callback`);
    }
    for (const host of ["loupe.example.com", "LOUPE.example.com:443"]) {
      const page = await withHost(loupe.url, host);
      expect(page.status).toBe(200);
      expect(redirectUrl(page.html)).toBe("https://loupe.example.com/setup/callback");
    }
    // A name rebound to 127.0.0.1, the public name on another port, another loopback address.
    for (const host of [
      `evil.example:${port}`,
      "loupe.example.com:8443",
      "evil.example",
      `127.0.0.2:${port}`,
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

describe("the callback", () => {
  it("is accepted only from the browser that started it, once, and never after an App exists", async () => {
    const { loupe, envFile } = await start({ LOUPE_PUBLIC_URL: "https://loupe.example.com" });
    const operator = setupBrowser();
    const attacker = setupBrowser();
    const operatorForm = manifestForm((await operator.open(`${loupe.url}/`)).html);
    const attackerForm = manifestForm((await attacker.open(`${loupe.url}/`)).html);
    expect(operator.cookies()).not.toBe(attacker.cookies()); // one state per browser

    // The attacker registers their own App and gets the operator to open the link back.
    const lure = await attacker.registerOnGitHub(attackerForm);
    const lured = await operator.open(lure);
    expect(lured.status).toBe(403);
    expect(lured.html).toContain("does not belong to the registration this browser started");
    // A browser without the cookie (a link opened elsewhere) is refused as well.
    const elsewhere = await setupBrowser().open(await operator.registerOnGitHub(operatorForm));
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.html).toContain("not started in this browser");
    expect(fs.existsSync(envFile)).toBe(false);

    // One-time: a callback whose exchange fails spends its state; the good code cannot follow it.
    const retry = manifestForm((await operator.open(`${loupe.url}/`)).html);
    const back = await operator.registerOnGitHub(retry);
    const failed = await operator.open(back.replace(/code=[^&]+/, "code=not-a-real-code"));
    expect(failed.status).toBe(502);
    const replay = await operator.open(back);
    expect(replay.status).toBe(403);
    expect(replay.html).toContain("used already");
    expect(fs.existsSync(envFile)).toBe(false);

    // A second browser starts, then the operator registers; the second's callback is closed.
    const late = setupBrowser();
    const lateForm = manifestForm((await late.open(`${loupe.url}/`)).html);
    const { page: done } = await operator.register(manifestForm((await operator.open(`${loupe.url}/`)).html));
    expect(done.status).toBe(200);
    const registered = github.registrations.at(-1)!;
    const lateBack = await late.registerOnGitHub(lateForm);
    const closed = await late.open(lateBack);
    expect(closed.status).toBe(409);
    expect(closed.html).toContain("already has a GitHub App");
    expect(github.registrations.at(-1)!.webhookSecret).toBeNull(); // its code was never exchanged
    expect(parseEnv(fs.readFileSync(envFile, "utf8")).WEBHOOK_SECRET).toBe(registered.webhookSecret);
    expect((await setupBrowser().open(`${loupe.url}/`)).html).toContain("Loupe is registered");
  });
});
