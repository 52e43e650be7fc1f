// GitLab's events delivered once, as GitLab delivers them: one attempt each, never again by itself,
// a hook disabled from its fourth failure in a row (the fake project hook in
// test/support/gitlab-webhooks.ts). Loupe as a real server process on a real redis-server that is
// stopped while merge requests are opened: every event is answered 200 at once, the hook is never
// counted a failure, and once Redis is back each merge request is reviewed once — a resend of an
// event included.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createOneChangeRepo } from "../../support/git-fixture.ts";
import { mergeRequestEvent } from "../../support/gitlab-webhooks.ts";
import { type GitLabWorld, startGitLabWorld } from "../../support/gitlab-world.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";

let redis: RedisServer;
let world: GitLabWorld;

beforeAll(async () => {
  redis = await startRedisServer();
  world = await startGitLabWorld({
    name: "events",
    fixture: () =>
      createOneChangeRepo([
        { branch: "change", a: 2 },
        { branch: "other", a: 3 },
      ]),
    extra: { REDIS_URL: redis.url },
  });
}, 120_000);

afterAll(async () => {
  await world?.stop();
  await redis?.stop();
});

describe("GitLab's events while the queue's Redis is away", () => {
  it("are answered 200 at once, kept, and reviewed once each when Redis is back", async () => {
    const { gitlab, hook, loupe, project } = world;
    const heads = [
      gitlab.addMergeRequest({ project, iid: 1, sourceBranch: "change" }).diffRefs.head_sha,
      gitlab.addMergeRequest({ project, iid: 2, sourceBranch: "other" }).diffRefs.head_sha,
    ];
    await redis.halt();
    const first = await hook.deliver(
      mergeRequestEvent({ project, iid: 1, headSha: heads[0]!, action: "open" }),
    );
    const second = await hook.deliver(
      mergeRequestEvent({ project, iid: 2, headSha: heads[1]!, action: "open" }),
    );
    // A person presses "Resend request" on the first: the same event, a new X-Gitlab-Event-UUID.
    const resent = await hook.resend(first);
    expect([first.result, second.result, resent.result]).toEqual([200, 200, 200]);
    expect(resent.eventUuid).not.toBe(first.eventUuid);
    expect(hook.recentFailures()).toBe(0);
    await loupe.until(() => loupe.output().includes("is held in memory"), "the held line");

    await redis.start();
    for (const head of heads)
      await loupe.until(
        () => gitlab.statuses.find((s) => s.sha === head && s.status !== "pending"),
        `the final status of ${head}`,
      );
    await loupe.until(() => loupe.output().includes("every held webhook is in the queue"), "the hand-over");
    for (const head of heads)
      expect(gitlab.statuses.filter((s) => s.sha === head).map((s) => s.status)).toEqual([
        "pending",
        "success",
      ]);
    const summaries = gitlab.notes.filter((n) => n.body.startsWith("<!-- loupe:summary -->"));
    expect(summaries.map((n) => n.iid).sort()).toEqual([1, 2]);
    expect(hook.disabled()).toBe(false);
  });

  it("skips the Test button's sample when it names a merge request that is not there", async () => {
    const { gitlab, hook, loupe, project } = world;
    const requestsBefore = gitlab.requests.length;
    const sample = mergeRequestEvent({ project, iid: 99, headSha: "9".repeat(40), action: "open" });
    expect((await hook.deliver(sample)).result).toBe(200);
    await loupe.until(
      () => loupe.output().includes("skipped: GitLab has no such merge request the token can read"),
      "the skip line",
    );
    const written = gitlab.requests.slice(requestsBefore).filter((r) => r.method !== "GET");
    expect(written).toEqual([]);
    expect(loupe.output()).not.toContain("review ended early");
  });
});
