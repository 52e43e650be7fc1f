// The fleet's reply queue against a real redis-server: one reply per comment across replicas, a
// reply taken over when the replica answering it is killed (SIGKILL, a real process), handed back
// at shutdown, and a webhook answered 503 when Redis cannot take the reply.

import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createRedisReplyQueue } from "../../../src/fleet/redis-reply-queue.ts";
import { QueueUnavailableError } from "../../../src/jobs/queue-unavailable.ts";
import type { ThreadReplyRequest } from "../../../src/replies/handle-comment.ts";
import type { ReplyRunner } from "../../../src/replies/reply-queue.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";

let redis: RedisServer;
const silent = { info: () => {}, warn: () => {} };
let nextComment = 5000;

const request = (): ThreadReplyRequest => ({
  deliveryId: `d-${nextComment}`,
  forge: "github",
  installationId: 1,
  owner: "o",
  repo: "r",
  pullNumber: 1,
  rootCommentId: 1,
  replyCommentId: ++nextComment,
});

const replica = (queueName: string, runner: ReplyRunner, lockMs = 30_000) =>
  createRedisReplyQueue({
    redisUrl: redis.url,
    queueName,
    concurrency: 1,
    log: silent,
    runner,
    timing: { lockMs, stalledIntervalMs: lockMs / 2, enqueueTimeoutMs: 1_000 },
  });

async function until(probe: () => boolean, what: string): Promise<void> {
  for (let i = 0; !probe(); i++) {
    if (i > 600) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis?.stop();
});

describe("the fleet's reply queue on Redis", () => {
  it("a comment delivered to two replicas is answered once", async () => {
    const ran: number[] = [];
    const runner: ReplyRunner = async (r) => {
      ran.push(r.replyCommentId);
    };
    const a = replica("once", runner);
    const b = replica("once", runner);
    try {
      const reply = request();
      expect(await a.enqueue(reply)).toBe("queued");
      expect(await b.enqueue({ ...reply, deliveryId: "redelivered" })).toBe("duplicate_reply");
      const other = request();
      expect(await b.enqueue(other)).toBe("queued");
      await until(() => ran.length === 2, "both replies");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(ran.sort()).toEqual([reply.replyCommentId, other.replyCommentId].sort());
    } finally {
      await Promise.all([a.shutdown(0), b.shutdown(0)]);
    }
  });

  it("a reply the previous version queued runs tagged with its forge", async () => {
    const ran: ThreadReplyRequest[] = [];
    const runner: ReplyRunner = async (r) => {
      ran.push(r);
    };
    const queue = replica("previous", runner);
    try {
      // The previous version's payloads: GitHub's with no forge, GitLab's with an installation id of 0.
      const { forge: _, ...untagged } = request();
      const gitLab = { ...request(), forge: "gitlab", installationId: 0 };
      expect(await queue.enqueue(untagged as unknown as ThreadReplyRequest)).toBe("queued");
      expect(await queue.enqueue(gitLab as unknown as ThreadReplyRequest)).toBe("queued");
      await until(() => ran.length === 2, "both replies");
      const byComment = (id: number) => ran.find((r) => r.replyCommentId === id);
      expect(byComment(untagged.replyCommentId)).toMatchObject({ forge: "github", installationId: 1 });
      expect(byComment(gitLab.replyCommentId)).toMatchObject({ forge: "gitlab" });
      expect(byComment(gitLab.replyCommentId)).not.toHaveProperty("installationId");
    } finally {
      await queue.shutdown(0);
    }
  });

  it("a replica killed mid-reply (SIGKILL): another replica takes the reply over", async () => {
    const commentId = ++nextComment;
    const child = spawn(
      process.execPath,
      ["test/support/reply-queue-replica.ts", redis.url, "takeover", "1000", String(commentId)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await until(() => output.includes(`started ${commentId}`), "the child replica to start the reply");
    child.kill("SIGKILL");
    await exited;
    const ran: number[] = [];
    const survivor = replica(
      "takeover",
      async (r) => {
        ran.push(r.replyCommentId);
      },
      1000,
    );
    try {
      await until(() => ran.length > 0, "the survivor to take the reply over");
      expect(ran).toEqual([commentId]);
    } finally {
      await survivor.shutdown(0);
    }
  });

  it("shutdown: a reply still running after the grace period is handed back, then answered by another replica", async () => {
    const signals: AbortSignal[] = [];
    const leaving = replica("handback", (_r, signal) => {
      signals.push(signal);
      return new Promise((resolve) => signal.addEventListener("abort", () => resolve(undefined)));
    });
    const reply = request();
    expect(await leaving.enqueue(reply)).toBe("queued");
    await until(() => signals.length === 1, "the reply to start");
    await leaving.shutdown(0);
    expect(signals[0]!.aborted).toBe(true);
    const ran: number[] = [];
    const next = replica("handback", async (r) => {
      ran.push(r.replyCommentId);
    });
    try {
      await until(() => ran.length === 1, "the next replica to answer");
      expect(ran).toEqual([reply.replyCommentId]);
    } finally {
      await next.shutdown(0);
    }
  });

  it("Redis away: the reply is refused with a 503 error, so GitHub keeps the delivery for redelivery", async () => {
    const queue = replica("away", async () => {});
    await redis.halt();
    try {
      const refused = await queue.enqueue(request()).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(QueueUnavailableError);
      expect((refused as QueueUnavailableError).status).toBe(503);
    } finally {
      await redis.start();
      await queue.shutdown(0);
    }
  });
});
