// Who makes a fleet job's queued check run, settled in Redis (a real redis-server): the announcer
// and the starting job never both make one. A live announcer is waited for; a dead one's claim
// expires and the job makes its own run (after looking on GitHub for one the dead announcer made);
// a run recorded is adopted by every attempt of the job, and taken to be cancelled at most once.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Redis } from "ioredis";
import { createAnnouncements } from "../../../src/fleet/announcement.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";

let redis: RedisServer;
let connection: Redis;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  redis = await startRedisServer();
  connection = new Redis(redis.url);
});

afterAll(async () => {
  connection?.disconnect();
  await redis?.stop();
});

describe("a fleet job's announcement", () => {
  it("a starting job waits for a live announcer and adopts its run, on every attempt", async () => {
    const announcements = createAnnouncements(connection, { prefix: "live:", claimMs: 5_000 });
    expect(await announcements.claim("job")).toBe(true);
    expect(await announcements.start("job")).toEqual({ kind: "wait" });
    expect(await announcements.record("job", 41)).toBe(true);
    expect(await announcements.start("job")).toEqual({ kind: "adopt", id: 41 });
    expect(await announcements.start("job")).toEqual({ kind: "adopt", id: 41 }); // a takeover
  });

  it("a dead announcer's claim expires: the job makes its own run, and the late record is refused", async () => {
    const announcements = createAnnouncements(connection, { prefix: "dead:", claimMs: 100 });
    expect(await announcements.claim("job")).toBe(true);
    await pause(200); // no renewal: the announcer died
    expect(await announcements.start("job")).toEqual({ kind: "create" });
    expect(await announcements.record("job", 42)).toBe(false);
    expect(await announcements.claim("job")).toBe(false);
  });

  it("an announcer does not announce a job that has started", async () => {
    const announcements = createAnnouncements(connection, { prefix: "started:", claimMs: 5_000 });
    expect(await announcements.start("job")).toEqual({ kind: "create" });
    expect(await announcements.claim("job")).toBe(false);
  });

  it("a recorded run of a job that leaves without running is taken once", async () => {
    const announcements = createAnnouncements(connection, { prefix: "drop:", claimMs: 5_000 });
    await announcements.claim("job");
    await announcements.record("job", 43);
    expect(await Promise.all([announcements.take("job"), announcements.take("job")])).toEqual([43, null]);
  });
});
