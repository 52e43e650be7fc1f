// A browser for the setup flow's tests: it keeps the cookies a server sets (as a browser would,
// per origin), reads the register page's manifest form, posts it to the fake GitHub's "new App"
// page and follows GitHub's redirect back with its cookies. `host` sends a Host header of the
// test's choosing to the same address, as a DNS name pointing at the server would.

import http from "node:http";
import { expect } from "@jest/globals";

export interface ManifestForm {
  readonly action: string;
  readonly manifest: Record<string, unknown>;
}

export interface Page {
  readonly status: number;
  readonly html: string;
}

const decodeHtml = (text: string) =>
  text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, "&");

/** The register page's form, as a browser would submit it. */
export function manifestForm(html: string): ManifestForm {
  const form =
    /<form method="post" action="([^"]*)">\s*<input type="hidden" name="manifest" value="([^"]*)">/.exec(
      html,
    );
  if (form === null) throw new Error(`no manifest form in:\n${html}`);
  return {
    action: decodeHtml(form[1]!),
    manifest: JSON.parse(decodeHtml(form[2]!)) as Record<string, unknown>,
  };
}

export interface SetupBrowser {
  /** GET with this browser's cookies; keeps the cookies the answer sets. */
  open(url: string): Promise<Page>;
  /** Posts the manifest to GitHub; returns the callback URL GitHub sends the browser back to. */
  registerOnGitHub(form: ManifestForm): Promise<string>;
  /** registerOnGitHub, then opens the callback. */
  register(form: ManifestForm): Promise<{ back: string; page: Page }>;
  /** The cookies this browser holds, as a Cookie header. */
  cookies(): string;
}

export function setupBrowser(): SetupBrowser {
  const jar = new Map<string, string>();
  const cookies = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const open = async (url: string): Promise<Page> => {
    const response = await fetch(url, { headers: jar.size > 0 ? { cookie: cookies() } : {} });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...flags] = line.split(";");
      const [name, value] = pair!.split("=") as [string, string];
      if (flags.some((flag) => flag.trim() === "Max-Age=0")) jar.delete(name);
      else jar.set(name, value);
    }
    return { status: response.status, html: await response.text() };
  };
  const registerOnGitHub = async (form: ManifestForm) => {
    const created = await fetch(form.action, {
      method: "POST",
      body: new URLSearchParams({ manifest: JSON.stringify(form.manifest) }),
      redirect: "manual",
    });
    expect(created.status).toBe(302);
    return created.headers.get("location")!;
  };
  return {
    open,
    registerOnGitHub,
    register: async (form) => {
      const back = await registerOnGitHub(form);
      return { back, page: await open(back) };
    },
    cookies,
  };
}

/** GET `path` from the server at `url` with the Host header `host`. */
export function withHost(url: string, host: string, path = "/"): Promise<Page> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: target.hostname, port: target.port, path, headers: { host } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, html: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    request.on("error", reject);
  });
}
