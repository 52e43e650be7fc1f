// Chromium (on PATH, or where CHROMIUM_PATH says; the preflight installs Debian's) driven by playwright-core: headless,
// no sandbox (CI runs as root), nothing in the background, and a fresh profile per launch
// (Playwright makes a new temporary --user-data-dir for every launch and removes it on close).
// Pages may only reach 127.0.0.1: every other request is aborted and recorded, and the host
// resolver answers NOTFOUND for any other name, so a page's third-party asset (a web font) never
// leaves the machine. A missing Chromium fails the test that needs it; nothing is skipped.

import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { requireProgram } from "./programs.ts";
import { realClockEnv } from "./real-clock.ts";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
];

export async function launchChromium(): Promise<Browser> {
  const executablePath = requireProgram("chromium");
  // The real clock even in the deep run's moved one (real-clock.ts): libfaketime inside Chromium's
  // many processes is a hang waiting to happen, and nothing Chromium shows depends on the date.
  return chromium.launch({ executablePath, headless: true, args: FLAGS, env: realClockEnv() });
}

export interface LoopbackContext {
  readonly context: BrowserContext;
  /** URLs the page asked for outside 127.0.0.1 (aborted). */
  readonly blocked: string[];
}

/** A new context whose requests outside 127.0.0.1 are aborted and recorded. */
export async function loopbackContext(
  browser: Browser,
  options: Parameters<Browser["newContext"]>[0] = {},
): Promise<LoopbackContext> {
  const context = await browser.newContext(options);
  const blocked: string[] = [];
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1") return route.continue();
    blocked.push(url.href);
    return route.abort("blockedbyclient");
  });
  return { context, blocked };
}
