// The App's copy of an organisation's file: read once per installation and owner within the time
// to live (on an injected clock), read again after it or after a push to `<owner>/.github`'s
// default branch (GitHub's own push payload), never kept when the read failed.

import { describe, expect, it } from "@jest/globals";
import type { ConfigFile } from "../../../../src/config/config-file-read.ts";
import { createOrganisationConfigCache } from "../../../../src/forges/github/organisation-config-cache.ts";
import { organisationConfigPush } from "../../../../src/forges/github/webhooks/organisation-push.ts";
import { pushEvent } from "../../../support/fake-github-payloads.ts";

const FILE: ConfigFile = { file: { kind: "found", text: "fail_on: high\n" }, source: "octo/.github" };
const KEY = { installationId: 7, owner: "octo" };

function world(ttlMs: number) {
  let now = 1_000;
  let reads = 0;
  const cache = createOrganisationConfigCache({ ttlMs, now: () => now });
  const read = () =>
    cache.read(KEY, async () => {
      reads++;
      return FILE;
    });
  return { cache, read, reads: () => reads, advance: (ms: number) => (now += ms) };
}

describe("the organisation file's cache", () => {
  it("reads once within the time to live and again after it", async () => {
    const w = world(60_000);
    await Promise.all([w.read(), w.read()]);
    expect(await w.read()).toBe(FILE);
    expect(w.reads()).toBe(1);
    w.advance(59_999);
    await w.read();
    expect(w.reads()).toBe(1);
    w.advance(1);
    await w.read();
    expect(w.reads()).toBe(2);
  });

  it("keeps installations and owners apart, and forgets one on a push", async () => {
    const w = world(60_000);
    await w.read();
    await w.cache.read({ installationId: 8, owner: "octo" }, async () => null);
    w.cache.invalidate({ installationId: 7, owner: "OCTO" });
    await w.read();
    expect(w.reads()).toBe(2);
  });

  it("does not keep a failed read, and keeps nothing with a time to live of 0", async () => {
    const w = world(60_000);
    let fail = true;
    const flaky = () =>
      w.cache.read(KEY, async () => {
        if (fail) throw new Error("GitHub is down");
        return FILE;
      });
    await expect(flaky()).rejects.toThrow("GitHub is down");
    fail = false;
    expect(await flaky()).toBe(FILE);
    const none = world(0);
    await none.read();
    await none.read();
    expect(none.reads()).toBe(2);
  });
});

describe("a push that changes the organisation's file", () => {
  const target = (repo: string) => ({
    htmlBase: "https://github.com",
    owner: "octo",
    repo,
    defaultBranch: "main",
    installationId: 7,
  });

  it("is a push to <owner>/.github's default branch, nothing else", () => {
    expect(organisationConfigPush(pushEvent(target(".github"), "refs/heads/main"))).toEqual({
      installationId: 7,
      owner: "octo",
    });
    expect(organisationConfigPush(pushEvent(target(".github"), "refs/heads/draft"))).toBeNull();
    expect(organisationConfigPush(pushEvent(target(".github"), "refs/tags/v1"))).toBeNull();
    expect(organisationConfigPush(pushEvent(target("app"), "refs/heads/main"))).toBeNull();
  });
});
