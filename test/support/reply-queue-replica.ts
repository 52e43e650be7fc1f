// A replica of the fleet's reply queue in a process of its own, for the test that kills one
// mid-reply (argv: redis URL, queue name, lock ms, comment id). It takes the webhook for that
// comment into the shared queue, prints `started <id>` when it starts answering, and never
// finishes: the test kills it there, as a replica lost in the middle of a reply.

import { createRedisReplyQueue } from "../../src/fleet/redis-reply-queue.ts";

const [redisUrl, queueName, lockMs, commentId] = process.argv.slice(2) as [string, string, string, string];
const queue = createRedisReplyQueue({
  redisUrl,
  queueName,
  concurrency: 1,
  log: { info: () => {}, warn: () => {} },
  timing: { lockMs: Number(lockMs), stalledIntervalMs: Number(lockMs) / 2 },
  runner: (request) => {
    process.stdout.write(`started ${request.replyCommentId}\n`);
    return new Promise(() => {});
  },
});
await queue.enqueue({
  deliveryId: "d-child",
  forge: "github",
  installationId: 1,
  owner: "o",
  repo: "r",
  pullNumber: 1,
  rootCommentId: 1,
  replyCommentId: Number(commentId),
});
