import { parseEnv } from "node:util";
import { describe, expect, it } from "@jest/globals";
import { webhookTarget } from "../../../src/config/webhook-target.ts";
import { buildManifest, createAppUrl, readAppYml } from "../../../src/setup/app-manifest.ts";
import { chooseOwner } from "../../../src/setup/app-owner.ts";
import { envValue, mergeEnvText } from "../../../src/setup/env-file.ts";
import { escapeHtml } from "../../../src/setup/setup-pages.ts";

const PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow+/=\nAAAB\n-----END RSA PRIVATE KEY-----\n";

describe(".env writing", () => {
  it("replaces the keys' lines in place, appends the others, keeps the rest, and reads back exactly", () => {
    const before = "# comment\nAPP_ID=\nexport PORT=4000\nWEBHOOK_SECRET=old\nNAME=Loupe review\n";
    const text = mergeEnvText(before, { APP_ID: "99", WEBHOOK_SECRET: "abc123", PRIVATE_KEY: PEM });
    expect(text.split("\n").slice(0, 5)).toEqual([
      "# comment",
      "APP_ID=99",
      "export PORT=4000",
      "WEBHOOK_SECRET=abc123",
      "NAME=Loupe review",
    ]);
    expect(parseEnv(text)).toEqual({
      APP_ID: "99",
      PORT: "4000",
      WEBHOOK_SECRET: "abc123",
      NAME: "Loupe review",
      PRIVATE_KEY: PEM,
    });
    expect(mergeEnvText("", { A: "1" })).toBe("A=1\n");
  });

  it("refuses a value a .env parser could not read back", () => {
    expect(() => envValue('say "hi"')).toThrow("double quote");
    expect(() => envValue("back\\slash")).toThrow("backslash");
  });
});

describe("the webhook target", () => {
  it("is LOUPE_PUBLIC_URL, else the typed URL, else the proxy channel, else missing", () => {
    const proxy = { WEBHOOK_PROXY_URL: "https://smee.io/abc" };
    expect(webhookTarget({ LOUPE_PUBLIC_URL: "https://l.example/base/", ...proxy }, "https://other")).toEqual(
      {
        kind: "public",
        publicUrl: "https://l.example/base",
        hookUrl: "https://l.example/base/api/github/webhooks",
      },
    );
    expect(webhookTarget(proxy, "https://typed.example")).toMatchObject({
      hookUrl: "https://typed.example/api/github/webhooks",
    });
    expect(webhookTarget(proxy, " ")).toEqual({ kind: "proxy", hookUrl: "https://smee.io/abc" });
    expect(webhookTarget({}, null)).toEqual({ kind: "missing", problem: null });
  });

  it.each([
    ["not a url", "must be an absolute URL"],
    ["ftp://host", "must start with https://"],
    ["https://u:p@host", "must not contain credentials"],
    ["https://host/?a=1", "a query"],
  ])("refuses %s", (raw, problem) => {
    const target = webhookTarget({ LOUPE_PUBLIC_URL: raw }, null);
    expect(target.kind).toBe("missing");
    expect(target.kind === "missing" && target.problem).toContain(problem);
    expect(target.kind === "missing" && target.problem).toContain("LOUPE_PUBLIC_URL");
  });
});

describe("the public URL", () => {
  it.each(["http://localhost:3000", "https://127.0.0.1", "http://[::1]:3000/", "http://app.localhost"])(
    "refuses the loopback address %s: GitHub cannot reach it",
    (typed) => {
      const target = webhookTarget({}, typed);
      expect(target.kind).toBe("missing");
      expect(target.kind === "missing" && target.problem).toContain("this machine's loopback");
    },
  );

  it("takes a pasted webhook URL back to its base, so the webhook path is not doubled", () => {
    for (const typed of [
      "https://loupe.example.com/api/github/webhooks",
      "https://loupe.example.com/api/github/webhooks/",
    ]) {
      expect(webhookTarget({}, typed)).toEqual({
        kind: "public",
        publicUrl: "https://loupe.example.com",
        hookUrl: "https://loupe.example.com/api/github/webhooks",
      });
    }
    expect(
      webhookTarget({ LOUPE_PUBLIC_URL: "https://l.example/base/api/github/webhooks" }, null),
    ).toMatchObject({
      hookUrl: "https://l.example/base/api/github/webhooks",
    });
  });
});

describe("the App's owner", () => {
  it("is the typed organisation, else GH_ORG, else the personal account (an empty field)", () => {
    expect(chooseOwner({}, null)).toEqual({ ok: true, org: null });
    expect(chooseOwner({ GH_ORG: "acme" }, null)).toEqual({ ok: true, org: "acme" });
    expect(chooseOwner({ GH_ORG: "acme" }, "octo-org ")).toEqual({ ok: true, org: "octo-org" });
    expect(chooseOwner({ GH_ORG: "acme" }, "")).toEqual({ ok: true, org: null });
    expect(chooseOwner({}, "not/an org")).toEqual({
      ok: false,
      problem: "The organisation must be an organisation's login (letters, digits, -)",
    });
  });
});

describe("the manifest", () => {
  it("is app.yml plus the hook URL and the callback, private by default", () => {
    const manifest = buildManifest({
      appYml: readAppYml(),
      hookUrl: "https://l.example/api/github/webhooks",
      setupBaseUrl: "http://localhost:3000",
    });
    expect(manifest).toMatchObject({
      name: "Loupe",
      public: false,
      default_events: [
        "pull_request",
        "check_run",
        "check_suite",
        "issue_comment",
        "pull_request_review_comment",
        "push",
      ],
      default_permissions: {
        checks: "write",
        pull_requests: "write",
        issues: "read",
        contents: "read",
        metadata: "read",
      },
      hook_attributes: { url: "https://l.example/api/github/webhooks", active: true },
      redirect_url: "http://localhost:3000/setup/callback",
    });
  });

  it("is posted to the personal or the organisation's new-App page, on GitHub or GHE", () => {
    expect(createAppUrl({}, "s1")).toBe("https://github.com/settings/apps/new?state=s1");
    expect(createAppUrl({ GH_ORG: "acme" }, "s1", "octo-org")).toBe(
      "https://github.com/organizations/octo-org/settings/apps/new?state=s1",
    );
    expect(createAppUrl({ GH_ORG: "acme" }, "s1")).toBe(
      "https://github.com/organizations/acme/settings/apps/new?state=s1",
    );
    expect(createAppUrl({ GHE_HOST: "ghe.local", GHE_PROTOCOL: "http" }, "s")).toBe(
      "http://ghe.local/settings/apps/new?state=s",
    );
  });

  it("escapes what it puts into HTML", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;");
  });
});
