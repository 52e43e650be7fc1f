// Where adding replicas stops helping: the same burst of pull requests through 1, 2 and 3 Loupe
// replicas (real server processes sharing one real redis-server) against the fake GitHub, with a
// model that takes a fixed time per answer. GitHub's production write spacing (1 s between an
// installation's writes, shared by the fleet in Redis) and a fleet-wide PROVIDER_MAX_IN_FLIGHT
// stay on, since those are the two ceilings a fleet meets. Each run reports reviews per minute
// (and its ratio to the one-replica run, side by side in this script), the provider's peak
// concurrency, and GitHub's write pacing per installation.
//
//   node_modules/.bin/node bench/fleet-scaling.ts            # 1, 2 and 3 replicas
//   BENCH_REPLICAS=1,3 BENCH_IN_FLIGHT=4 node_modules/.bin/node bench/fleet-scaling.ts

import crypto from "node:crypto";
import os from "node:os";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../test/support/loupe-process.ts";
import { startRedisServer } from "../test/support/redis-server.ts";
import { deliverWebhook } from "../test/support/webhook-delivery.ts";
import { buildWorld } from "./app-fixture.ts";

const SECRET = `bench-${crypto.randomUUID()}`;
const INSTALLATIONS = 3;
const PULLS_EACH = 6;
/** Every model answer takes this long: a review is two answers (one tool round, the final one). */
const ANSWER_MS = Number(process.env.BENCH_ANSWER_MS ?? 2000);
const CONCURRENCY = 2;
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 4);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 600) * 1000;
const WRITE = new Set(["POST", "PATCH", "PUT", "DELETE"]);

const seconds = (ms: number) => Number((ms / 1000).toFixed(1));
const median = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)]!;
};

async function run(replicaCount: number) {
  const redis = await startRedisServer();
  const world = await buildWorld({
    repos: INSTALLATIONS,
    prsPerRepo: PULLS_EACH,
    turns: INSTALLATIONS * PULLS_EACH * 2,
    delayMs: ANSWER_MS,
  });
  const replicas: LoupeProcess[] = await Promise.all(
    Array.from({ length: replicaCount }, () =>
      startLoupeProcess({
        command: "node",
        env: fakeWorldEnv({
          github: world.github,
          providerBaseURL: world.provider.baseURL,
          webhookSecret: SECRET,
          apiKey: `test-key-${crypto.randomUUID()}`,
          extra: {
            LOG_LEVEL: "warn",
            REDIS_URL: redis.url,
            REVIEW_CONCURRENCY: String(CONCURRENCY),
            PROVIDER_MAX_IN_FLIGHT: String(IN_FLIGHT),
            // GitHub's production pacing, not the test worlds' 20 ms.
            GITHUB_WRITE_SPACING_MS: "1000",
            CHECK_RUN_PROGRESS_SECONDS: "60",
          },
        }),
      }),
    ),
  );
  const firstApiRequest = world.github.requests.length;
  const t0 = performance.now();
  const statuses = await Promise.all(
    world.pulls.map((pr, i) =>
      deliverWebhook({
        url: replicas[i % replicas.length]!.webhookUrl,
        event: "pull_request",
        payload: pr.payload("opened"),
        secret: SECRET,
      }).then((answer) => answer.status),
    ),
  );
  const completed = () => world.github.checkRuns.filter((c) => c.history.at(-1)?.status === "completed");
  while (completed().length < world.pulls.length && performance.now() - t0 < DEADLINE_MS)
    await new Promise((resolve) => setTimeout(resolve, 100));
  const wallMs = performance.now() - t0;
  const writes = world.github.requests
    .slice(firstApiRequest)
    .filter((r) => WRITE.has(r.method) && r.url.includes("/repos/"));
  const gaps: number[] = [];
  for (let n = 1; n <= INSTALLATIONS; n++) {
    const times = writes.filter((w) => w.url.includes(`/repos/org${n}/`)).map((w) => w.receivedAt);
    for (let i = 1; i < times.length; i++) gaps.push(times[i]! - times[i - 1]!);
  }
  const done = completed().length;
  const result = {
    replicas: replicaCount,
    webhook_statuses: [...new Set(statuses)],
    completed: done,
    conclusions: [...new Set(completed().map((c) => c.history.at(-1)?.conclusion))],
    wall_s: seconds(wallMs),
    reviews_per_minute: Number(((done / wallMs) * 60_000).toFixed(1)),
    provider_requests: world.provider.requests.length,
    provider_peak_in_flight: world.provider.peakInFlight(),
    github_writes: writes.length,
    github_write_gap_median_ms_per_installation: Math.round(median(gaps)),
    github_writes_per_second: Number(((writes.length / wallMs) * 1000).toFixed(2)),
  };
  for (const loupe of replicas) await loupe.stop(5000);
  await world.stop();
  await redis.stop();
  return result;
}

const counts = (process.env.BENCH_REPLICAS ?? "1,2,3").split(",").map(Number);
console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
);
console.log(
  `burst: ${INSTALLATIONS * PULLS_EACH} pull requests in ${INSTALLATIONS} installations, ${ANSWER_MS} ms a model answer, ` +
    `REVIEW_CONCURRENCY=${CONCURRENCY}, PROVIDER_MAX_IN_FLIGHT=${IN_FLIGHT}, GITHUB_WRITE_SPACING_MS=1000`,
);
const results = [];
for (const count of counts) {
  const result = await run(count);
  results.push(result);
  console.log(JSON.stringify(result));
}
const reference = results[0]!;
for (const result of results) {
  console.log(
    `${result.replicas} replica(s): ${result.reviews_per_minute} reviews/min, ` +
      `${(result.reviews_per_minute / reference.reviews_per_minute).toFixed(2)}× the ${reference.replicas}-replica run, ` +
      `provider peak ${result.provider_peak_in_flight} in flight, ` +
      `median ${result.github_write_gap_median_ms_per_installation} ms between an installation's writes`,
  );
}
console.log(
  `load average after: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
