// The first start, end to end: Loupe with no credentials serves its setup page; the manifest is
// read from the page's HTML form and posted to a fake GitHub's "new App" page (personal account or
// GH_ORG); GitHub's redirect brings the browser back with a code, which Loupe converts
// (POST /app-manifests/{code}/conversions) and writes to .env in its working directory. Restarted
// with a provider, the same directory runs the App and accepts webhooks signed with that secret.

import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { parse } from "yaml";
import { readAppYml } from "../../../src/setup/app-manifest.ts";
import { checkEnvFileWritable, createSetupHandler } from "../../../src/setup/setup-server.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import {
  type LoupeProcess,
  PROJECT_ROOT,
  runLoupeToExit,
  startLoupeProcess,
} from "../../support/loupe-process.ts";
import { manifestForm, setupBrowser } from "../../support/setup-browser.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

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

function workdir(withEnvExample: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-setup-"));
  dirs.push(dir);
  if (withEnvExample) fs.copyFileSync(path.join(PROJECT_ROOT, ".env.example"), path.join(dir, ".env"));
  return dir;
}

async function start(cwd: string, env: Record<string, string>): Promise<LoupeProcess> {
  const loupe = await startLoupeProcess({
    command: "node",
    cwd,
    env: { GHE_HOST: github.host, GHE_PROTOCOL: "http", ...env },
  });
  running.push(loupe);
  return loupe;
}

describe("the setup flow against a fake GitHub", () => {
  it("asks for the public URL, registers the App with <public URL>/api/github/webhooks and writes .env", async () => {
    const dir = workdir(true);
    const loupe = await start(dir, {});
    expect(loupe.output()).toContain(`open http://127.0.0.1:${loupe.port}/ to register one`);
    expect((await fetch(`${loupe.url}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${loupe.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.text()).toContain("not registered");

    const browser = setupBrowser();
    const ask = await browser.open(`${loupe.url}/`);
    expect(ask.status).toBe(200);
    const askHtml = ask.html;
    expect(askHtml).toContain('name="public_url"');
    expect(askHtml).toContain("WEBHOOK_PROXY_URL");
    const bad = await fetch(`${loupe.url}/?public_url=${encodeURIComponent("ftp://x")}`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("must start with https://");

    const page = await browser.open(
      `${loupe.url}/?public_url=${encodeURIComponent("https://loupe.example.com/")}`,
    );
    const form = manifestForm(page.html);
    expect(form.action).toMatch(new RegExp(`^${github.url}/settings/apps/new\\?state=[0-9a-f]{64}$`));
    // The same state is in the browser's cookie, where no page can read it.
    expect(browser.cookies()).toBe(`loupe_setup_state=${new URL(form.action).searchParams.get("state")}`);
    const appYml = parse(fs.readFileSync(path.join(PROJECT_ROOT, "app.yml"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(form.manifest).toEqual({
      ...appYml,
      public: false,
      hook_attributes: { url: "https://loupe.example.com/api/github/webhooks", active: true },
      redirect_url: `${loupe.url}/setup/callback`,
    });

    const { back, page: done } = await browser.register(form);
    expect(back.startsWith(`${loupe.url}/setup/callback?code=`)).toBe(true);
    expect(done.status).toBe(200);
    const doneHtml = done.html;
    for (const next of [
      "OPENAI_BASE_URL",
      "OPENAI_API_KEY",
      "REVIEW_MODEL",
      `${github.url}/apps/loupe/installations/new`,
    ]) {
      expect(doneHtml).toContain(next);
    }
    const registration = github.registrations.at(-1)!;
    expect(registration.org).toBeNull();

    const envFile = path.join(dir, ".env");
    const written = parseEnv(fs.readFileSync(envFile, "utf8"));
    expect(written).toMatchObject({
      APP_ID: github.appId,
      PRIVATE_KEY: github.privateKey,
      WEBHOOK_SECRET: registration.webhookSecret,
      CHECK_RUN_NAME: "Loupe review", // the rest of the copied .env.example is kept
    });
    expect(fs.readFileSync(envFile, "utf8").match(/^APP_ID=/gm)).toHaveLength(1);
    expect(fs.statSync(envFile).mode & 0o777).toBe(0o600);
    expect(loupe.output()).not.toContain(registration.webhookSecret!);
    expect(loupe.output()).not.toContain(github.privateKey.split("\n")[1]!);

    // The callback is closed now that the App exists; the page says what is left to do.
    const replay = await browser.open(back);
    expect(replay.status).toBe(409);
    expect(replay.html).toContain("already has a GitHub App");
    expect((await browser.open(`${loupe.url}/`)).html).toContain("Loupe is registered");
    await loupe.stop();

    // Restarted in the same directory with a provider: the App runs on what setup wrote.
    const app = await start(dir, {
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      OPENAI_API_KEY: "test-key-setup",
      REVIEW_MODEL: "gpt-4.1-mini",
    });
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    const ping = { zen: "Keep it logically awesome.", hook_id: 1, hook: { type: "App", id: 1 } };
    const signed = await deliverWebhook({
      url: app.webhookUrl,
      event: "ping",
      payload: ping,
      secret: registration.webhookSecret!,
    });
    expect(signed.status).toBe(200);
    const forged = await deliverWebhook({
      url: app.webhookUrl,
      event: "ping",
      payload: ping,
      secret: "development",
    });
    expect(forged.status).toBe(400);
  });

  it("registers on the GH_ORG organisation, with a WEBHOOK_PROXY_URL channel as the webhook URL", async () => {
    const dir = workdir(false);
    const proxy = "https://smee.io/loupe-test-channel";
    const loupe = await start(dir, { GH_ORG: "octo-org", WEBHOOK_PROXY_URL: proxy });
    const browser = setupBrowser();
    const { html } = await browser.open(`${loupe.url}/`);
    expect(html).toContain("the organisation octo-org");
    const form = manifestForm(html);
    expect(form.action.startsWith(`${github.url}/organizations/octo-org/settings/apps/new?state=`)).toBe(
      true,
    );
    expect(form.manifest.hook_attributes).toEqual({ url: proxy, active: true });

    const { page } = await browser.register(form);
    expect(page.status).toBe(200);
    expect(github.registrations.at(-1)!.org).toBe("octo-org");
    expect(parseEnv(fs.readFileSync(path.join(dir, ".env"), "utf8")).APP_ID).toBe(github.appId);
  });

  it("refuses a loopback public URL, takes a pasted webhook URL to its base, and has an organisation field", async () => {
    const loupe = await start(workdir(false), {});
    const browser = setupBrowser();
    const ask = await browser.open(`${loupe.url}/`);
    expect(ask.html).toContain('name="org"');
    const local = await browser.open(
      `${loupe.url}/?public_url=${encodeURIComponent("http://localhost:3000")}`,
    );
    expect(local.status).toBe(400);
    expect(local.html).toContain("this machine&#39;s loopback");
    expect(local.html).not.toContain('name="manifest"');

    const pasted = encodeURIComponent("https://loupe.example.com/api/github/webhooks");
    const personal = manifestForm((await browser.open(`${loupe.url}/?public_url=${pasted}&org=`)).html);
    expect(personal.manifest.hook_attributes).toEqual({
      url: "https://loupe.example.com/api/github/webhooks",
      active: true,
    });
    expect(personal.action.startsWith(`${github.url}/settings/apps/new?state=`)).toBe(true);

    const wrongOrg = await browser.open(
      `${loupe.url}/?public_url=${pasted}&org=${encodeURIComponent("a b")}`,
    );
    expect(wrongOrg.status).toBe(400);
    expect(wrongOrg.html).toContain("must be an organisation&#39;s login");
    const page = await browser.open(`${loupe.url}/?public_url=${pasted}&org=octo-org`);
    expect(page.html).toContain("the organisation octo-org");
    // The register page keeps the owner field, with the typed URL, to change the owner again.
    expect(page.html).toMatch(/<input type="hidden" name="public_url" value="https:\/\/loupe\.example\.com/);
    const form = manifestForm(page.html);
    expect(form.action.startsWith(`${github.url}/organizations/octo-org/settings/apps/new?state=`)).toBe(
      true,
    );
    await browser.register(form);
    expect(github.registrations.at(-1)!.org).toBe("octo-org");
  });

  it("logs a failed code exchange, without the code, as well as showing it", async () => {
    const loupe = await start(workdir(false), { LOUPE_PUBLIC_URL: "https://loupe.example.com" });
    const browser = setupBrowser();
    const form = manifestForm((await browser.open(`${loupe.url}/`)).html);
    const back = new URL(await browser.registerOnGitHub(form));
    const spent = back.searchParams.get("code")!;
    back.searchParams.set("code", `${spent}0`); // a code GitHub never issued
    const failed = await browser.open(back.href);
    expect(failed.status).toBe(502);
    expect(failed.html).toContain("GitHub did not accept the code (HTTP 404)");
    const logged = await loupe.until(
      () => /registration was not finished: .*HTTP 404.*/.exec(loupe.output())?.[0],
      "the failed exchange's log line",
    );
    expect(logged).toContain("GitHub did not accept the code");
    expect(loupe.output()).not.toContain(spent);
  });

  it("refuses a callback that does not carry this page's state, and writes nothing", async () => {
    const dir = workdir(false);
    const loupe = await start(dir, { LOUPE_PUBLIC_URL: "https://loupe.example.com" });
    const browser = setupBrowser();
    const form = manifestForm((await browser.open(`${loupe.url}/`)).html);
    const { page: refused } = await browser.register({
      ...form,
      action: form.action.replace(/state=[0-9a-f]+/, "state=forged"),
    });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain("register again");
    expect(fs.existsSync(path.join(dir, ".env"))).toBe(false);
  });

  it("refuses to start with a LOUPE_PUBLIC_URL that is not a URL, naming it", async () => {
    const result = await runLoupeToExit({
      command: "node",
      cwd: workdir(false),
      env: { LOUPE_PUBLIC_URL: "loupe.example.com" },
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain("loupe: LOUPE_PUBLIC_URL must be an absolute URL");
  });

  it("says how to finish by hand when .env cannot be written after GitHub created the App", async () => {
    const envFile = path.join(workdir(false), "gone", ".env");
    expect(() => checkEnvFileWritable(envFile)).toThrow(
      "is not writable: start Loupe from a writable directory",
    );
    // Served in-process: `npm start` refuses such a directory before the page is ever shown.
    const server = http.createServer(
      createSetupHandler({
        env: { GHE_HOST: github.host, GHE_PROTOCOL: "http", LOUPE_PUBLIC_URL: "https://loupe.example.com" },
        envFile,
        appYml: readAppYml(),
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const browser = setupBrowser();
      const { page } = await browser.register(manifestForm((await browser.open(`${url}/`)).html));
      expect(page.status).toBe(500);
      const { html } = page;
      expect(html).toContain("could not be written");
      expect(html).toContain(`APP_ID=${github.appId}`);
      expect(html).toContain(`${github.url}/apps/loupe`);
      expect(html).not.toContain(github.privateKey.split("\n")[1]!);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
