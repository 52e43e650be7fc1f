// What the log's output stage costs (src/log/bounded-line.ts: each line parsed, bounded, redacted
// and written again), as a ratio to pino writing the same lines straight to the sink: typical
// lines (an access-log line, a review_ended line) and a failed delivery's error with a 40 KB
// payload (which the stage shrinks to a short line).
// Run: node_modules/.bin/node bench/log-lines.ts

import { Writable } from "node:stream";
import { pino } from "pino";
import { boundedLines } from "../src/log/bounded-line.ts";
import { logOptions } from "../src/log/create-log.ts";

const ROUNDS = 20_000;

function sink(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

async function time(
  log: pino.Logger,
  write: (log: pino.Logger, i: number) => void,
  rounds: number,
): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) write(log, i);
  await new Promise((resolve) => setImmediate(resolve));
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const access = (log: pino.Logger, i: number) =>
  log.child({ name: "http" }).info(
    {
      req: { id: `d-${i}`, method: "POST", url: "/api/github/webhooks", remoteAddress: "10.0.0.1" },
      res: { statusCode: 200 },
      responseTime: 3,
    },
    "POST /api/github/webhooks 200 - 3ms",
  );
const ended = (log: pino.Logger, i: number) =>
  log.info(
    {
      event: "review_ended",
      repository: "octo/app",
      pull_request: i,
      head_sha: "a".repeat(40),
      termination_reason: "final_review",
      conclusion: "success",
      rounds: 7,
      tool_calls: 21,
      tokens: 52_000,
      duration_ms: 48_000,
    },
    "review ended",
  );
const body = "lorem ipsum ".repeat(3_400);
const failed = (log: pino.Logger, i: number) => {
  const error = Object.assign(new Error("the review queue cannot take work now"), {
    event: { id: `d-${i}`, name: "pull_request", payload: { pull_request: { title: "A title", body } } },
  });
  log.child({ name: "event", id: `d-${i}` }).error(error);
};

for (const [name, write, rounds] of [
  ["access line", access, ROUNDS],
  ["review_ended line", ended, ROUNDS],
  ["failed delivery (40 KB payload)", failed, ROUNDS / 10],
] as const) {
  const options = logOptions({ level: "info", messageKey: "msg" });
  const direct = pino({ ...options, serializers: {} }, sink());
  const stage = boundedLines();
  stage.pipe(sink());
  const bounded = pino(options, stage);
  await time(direct, write, 1000); // warm-up
  await time(bounded, write, 1000);
  const a = await time(direct, write, rounds);
  const b = await time(bounded, write, rounds);
  console.log(
    `${name}: ${rounds} lines, straight ${((a / rounds) * 1000).toFixed(1)} µs/line, bounded ${((b / rounds) * 1000).toFixed(1)} µs/line, ratio ${(b / a).toFixed(2)}`,
  );
}
