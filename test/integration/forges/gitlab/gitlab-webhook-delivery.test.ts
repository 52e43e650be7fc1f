// GitLab's webhook route in front of the real in-process queue, delivered to by the fake GitLab
// project hook (one attempt per event, a new X-Gitlab-Event-UUID each time, Idempotency-Key on
// newer releases): the answer comes before any handling, and an event is handled once whichever
// of GitLab's headers it comes with — never by X-Gitlab-Event-UUID, which GitLab shares between
// unrelated hooks of one request.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { GitLabDelivery } from "../../../../src/forges/gitlab/gitlab-merge-request.ts";
import { createGitLabWebhook, type GitLabWebhook } from "../../../../src/forges/gitlab/gitlab-webhook.ts";
import { createReviewQueue } from "../../../../src/jobs/queue.ts";
import type { ReviewJob } from "../../../../src/jobs/review-job.ts";
import type { ReviewQueue } from "../../../../src/jobs/review-queue.ts";
import { NO_METRICS } from "../../../../src/metrics/metrics.ts";
import {
  deliverGitLabEvent,
  fakeGitLabHook,
  mergeRequestEvent,
  noteEvent,
} from "../../../support/gitlab-webhooks.ts";

const SECRET = "a-gitlab-webhook-secret-of-some-length";
const HEAD = "c".repeat(40);
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

interface Route {
  readonly url: string;
  readonly hook: GitLabWebhook;
  readonly jobs: ReviewJob[];
  readonly notes: GitLabDelivery[];
  readonly queue: ReviewQueue;
  stop(): Promise<void>;
}

async function startRoute(notes: (delivery: GitLabDelivery) => Promise<string>): Promise<Route> {
  const jobs: ReviewJob[] = [];
  const seenNotes: GitLabDelivery[] = [];
  const queue = createReviewQueue({
    concurrency: 1,
    runner: async (job) => {
      jobs.push(job);
      return { remember: false };
    },
  });
  const hook = createGitLabWebhook({
    secret: SECRET,
    queue: () => queue,
    notes: (delivery) => {
      seenNotes.push(delivery);
      return notes(delivery);
    },
    metrics: NO_METRICS,
    log: quiet,
  });
  const server = http.createServer((req, res) => {
    void hook.handle(req, res).then((taken) => {
      if (!taken) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/gitlab/webhooks`;
  return {
    url,
    hook,
    jobs,
    notes: seenNotes,
    queue,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const settled = async (route: Route) => {
  await route.hook.idle();
  await route.queue.drain();
};

describe("GitLab's webhook answers before it handles", () => {
  let route: Route;
  let release: (outcome: string) => void = () => {};
  beforeAll(async () => {
    route = await startRoute(() => new Promise<string>((resolve) => (release = resolve)));
  });
  afterAll(() => route.stop());

  it("answers a note event 200 while its handling (GitLab's calls) has not finished", async () => {
    const event = noteEvent({
      project: "group/app",
      iid: 3,
      headSha: HEAD,
      note: { id: 71, body: "@loupe-bot review", author: "dev", discussionId: "d71", type: null },
    });
    expect(await deliverGitLabEvent(route.url, SECRET, event, { eventHeader: "Note Hook" })).toBe(200);
    expect(route.notes).toHaveLength(1);
    let idle = false;
    const waiting = route.hook.idle().then(() => {
      idle = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    release("answered");
    await waiting;
    expect(idle).toBe(true);
  });

  it("hands an internal note (Confidential Note Hook) to the conversation too", async () => {
    const event = noteEvent({
      project: "group/app",
      iid: 3,
      headSha: HEAD,
      note: { id: 72, body: "@loupe-bot review", author: "dev", discussionId: "d72", type: null },
    });
    expect(
      await deliverGitLabEvent(route.url, SECRET, event, { eventHeader: "Confidential Note Hook" }),
    ).toBe(200);
    release("answered");
    await route.hook.idle();
    expect(route.notes.map((n) => n.event)).toEqual(["Note Hook", "Confidential Note Hook"]);
  });
});

describe("GitLab's events are handled once", () => {
  let route: Route;
  beforeAll(async () => {
    route = await startRoute(async () => "answered");
  });
  afterAll(() => route.stop());

  const open = (iid: number, head = HEAD) =>
    mergeRequestEvent({ project: "group/app", iid, headSha: head, action: "open" });

  it("by Idempotency-Key: a resend of an event is not handled again", async () => {
    const hook = fakeGitLabHook({ url: route.url, secret: SECRET });
    const first = await hook.deliver(open(1));
    const again = await hook.resend(first);
    expect([first.result, again.result]).toEqual([200, 200]);
    expect(again.eventUuid).not.toBe(first.eventUuid);
    await settled(route);
    expect(route.jobs.filter((j) => j.request.pullNumber === 1)).toHaveLength(1);
  });

  it("without Idempotency-Key (older releases), by the event itself, whatever its X-Gitlab-Event-UUID", async () => {
    const hook = fakeGitLabHook({ url: route.url, secret: SECRET, idempotencyKey: false });
    await hook.deliver(open(2));
    await hook.deliver(open(2));
    const note = noteEvent({
      project: "group/app",
      iid: 2,
      headSha: HEAD,
      note: { id: 80, body: "@loupe-bot review", author: "dev", discussionId: "d80", type: null },
    });
    await hook.deliver(note, "Note Hook");
    await hook.deliver(note, "Note Hook");
    await settled(route);
    expect(route.jobs.filter((j) => j.request.pullNumber === 2)).toHaveLength(1);
    expect(
      route.notes.filter(
        (n) => (n.payload as { object_attributes: { id: number } }).object_attributes.id === 80,
      ),
    ).toHaveLength(1);
  });

  it("not by X-Gitlab-Event-UUID: two merge requests' events sharing one are both handled", async () => {
    const uuid = "3f1b0a52-6c1e-4a8a-9d62-5e1a2b3c4d5e";
    expect(await deliverGitLabEvent(route.url, SECRET, open(4), { uuid })).toBe(200);
    expect(await deliverGitLabEvent(route.url, SECRET, open(5), { uuid })).toBe(200);
    await settled(route);
    expect(route.jobs.map((j) => j.request.pullNumber).filter((n) => n >= 4)).toEqual([4, 5]);
  });

  it("a push is a new event: the same merge request with a new head is handled", async () => {
    const push = (head: string, oldrev: string) =>
      mergeRequestEvent({ project: "group/app", iid: 6, headSha: head, action: "update", oldrev });
    const hook = fakeGitLabHook({ url: route.url, secret: SECRET, idempotencyKey: false });
    await hook.deliver(push("d".repeat(40), "c".repeat(40)));
    await settled(route);
    await hook.deliver(push("e".repeat(40), "d".repeat(40)));
    await settled(route);
    expect(route.jobs.filter((j) => j.request.pullNumber === 6).map((j) => j.request.headSha)).toEqual([
      "d".repeat(40),
      "e".repeat(40),
    ]);
  });
});

describe("the fake GitLab project hook", () => {
  it("is disabled from its fourth failure in a row, and sends nothing then", async () => {
    let received = 0;
    const failing = http.createServer((req, res) => {
      received++;
      req.resume();
      res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => failing.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/`;
    const hook = fakeGitLabHook({ url, secret: SECRET });
    const results = [];
    for (let i = 0; i < 5; i++)
      results.push((await hook.deliver({ object_kind: "push" }, "Push Hook")).result);
    await new Promise<void>((resolve) => failing.close(() => resolve()));
    expect(results).toEqual([503, 503, 503, 503, "disabled"]);
    expect(received).toBe(4);
    expect(hook.disabled()).toBe(true);
  });
});
