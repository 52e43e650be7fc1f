// The setup page in Chromium, as an operator uses it: the public URL and the organisation typed
// into the form, the register button posting the manifest to the fake GitHub's "new App" page of
// that organisation, and GitHub's redirect back finishing the registration in the same browser
// (its cookie). A loopback public URL is refused on the page, with no register button.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Browser } from "playwright-core";
import { launchChromium, loopbackContext } from "../../support/chromium.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";

let github: FakeGitHub;
let browser: Browser;
let loupe: LoupeProcess;
let dir: string;

beforeAll(async () => {
  github = await startFakeGitHub();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-setup-browser-"));
  loupe = await startLoupeProcess({
    command: "node",
    cwd: dir,
    env: { GHE_HOST: github.host, GHE_PROTOCOL: "http" },
  });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await loupe?.stop();
  await github?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the setup page in a browser", () => {
  it("refuses a loopback public URL on the page", async () => {
    const { context, blocked } = await loopbackContext(browser);
    try {
      const page = await context.newPage();
      await page.goto(`${loupe.url}/`);
      await page.fill('input[name="public_url"]', "http://localhost:3000");
      await page.click('button[type="submit"]');
      await page.waitForURL(/public_url=/);
      expect(await page.locator(".problem").textContent()).toContain("this machine's loopback");
      expect(await page.getByText("Register the GitHub App", { exact: true }).count()).toBe(0);
      expect(blocked).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("registers on the organisation typed in, with a pasted webhook URL taken to its base", async () => {
    const { context, blocked } = await loopbackContext(browser);
    try {
      const page = await context.newPage();
      await page.goto(`${loupe.url}/`);
      await page.fill('input[name="public_url"]', "https://loupe.example.com/api/github/webhooks");
      await page.fill('input[name="org"]', "octo-org");
      await page.click('button[type="submit"]');
      await page.getByText("the organisation octo-org").waitFor();
      expect(await page.locator("pre").textContent()).toBe("https://loupe.example.com/api/github/webhooks");
      await page.getByRole("button", { name: "Register the GitHub App" }).click();
      await page.waitForURL(/\/setup\/callback\?/);
      expect(await page.locator("h1").textContent()).toMatch(/^Registered /);
      const registration = github.registrations.at(-1)!;
      expect(registration.org).toBe("octo-org");
      expect(registration.manifest.hook_attributes).toEqual({
        url: "https://loupe.example.com/api/github/webhooks",
        active: true,
      });
      expect(parseEnv(fs.readFileSync(path.join(dir, ".env"), "utf8")).APP_ID).toBe(github.appId);
      expect(blocked).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
