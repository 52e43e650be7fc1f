// The commenters' permission cache on an injected clock: an answer is reused within its time and
// asked again after it, per installation, repository and person (case-insensitive, as GitHub's
// names are); a failed lookup is not kept; the number of answers kept is bounded.

import { describe, expect, it } from "@jest/globals";
import {
  createPermissionCache,
  PERMISSION_TTL_MS,
  type PermissionKey,
} from "../../../src/conversation/permission-cache.ts";

const key = (over: Partial<Extract<PermissionKey, { forge: "github" }>> = {}): PermissionKey => ({
  forge: "github",
  installationId: 1,
  owner: "octo",
  repo: "app",
  login: "writer",
  ...over,
});

function counting(answer: boolean) {
  const asked: number[] = [];
  const ask = () => {
    asked.push(asked.length);
    return Promise.resolve(answer);
  };
  return { asked, ask };
}

describe("the permission cache", () => {
  it("reuses an answer within its time, and asks again after it", async () => {
    let now = 0;
    const cache = createPermissionCache({ now: () => now });
    const lookup = counting(true);
    expect(await cache.canWrite(key(), lookup.ask)).toBe(true);
    now = PERMISSION_TTL_MS - 1;
    expect(await cache.canWrite(key({ login: "WRITER", owner: "Octo" }), lookup.ask)).toBe(true);
    expect(lookup.asked).toHaveLength(1);
    now = PERMISSION_TTL_MS;
    const revoked = counting(false);
    expect(await cache.canWrite(key(), revoked.ask)).toBe(false);
    expect(revoked.asked).toHaveLength(1);
  });

  it("keeps one answer per installation, repository and person", async () => {
    const cache = createPermissionCache({ now: () => 0 });
    const lookup = counting(true);
    for (const k of [
      key(),
      key({ installationId: 2 }),
      key({ repo: "other" }),
      key({ owner: "acme" }),
      key({ login: "x" }),
    ]) {
      await cache.canWrite(k, lookup.ask);
    }
    expect(lookup.asked).toHaveLength(5);
  });

  it("does not keep a failed lookup", async () => {
    const cache = createPermissionCache({ now: () => 0 });
    await expect(cache.canWrite(key(), () => Promise.reject(new Error("HTTP 502")))).rejects.toThrow("502");
    const lookup = counting(true);
    expect(await cache.canWrite(key(), lookup.ask)).toBe(true);
    expect(lookup.asked).toHaveLength(1);
  });

  it("is bounded: past its size the oldest answer is asked again", async () => {
    const cache = createPermissionCache({ now: () => 0, maxEntries: 2 });
    const lookup = counting(true);
    await cache.canWrite(key({ login: "a" }), lookup.ask);
    await cache.canWrite(key({ login: "b" }), lookup.ask);
    await cache.canWrite(key({ login: "c" }), lookup.ask);
    await cache.canWrite(key({ login: "c" }), lookup.ask);
    await cache.canWrite(key({ login: "b" }), lookup.ask);
    expect(lookup.asked).toHaveLength(3);
    await cache.canWrite(key({ login: "a" }), lookup.ask);
    expect(lookup.asked).toHaveLength(4);
  });
});
