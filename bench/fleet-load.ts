// Loupe as a fleet under load: real server processes (`node src/server.ts`) sharing one real
// redis-server, against the fake GitHub and a scripted model that answers each turn in 1–3 s.
// 60 pull requests in 4 installations; the first opens 40 at once, then the three others open
// 20 between them. Run 1: one replica (the reference). Run 2: three replicas. Run 3: three
// replicas, one SIGKILLed in the middle. Each run: every check run must complete `success`, no
// review may be posted twice, none may be left open; it reports the wall time, when each
// installation's reviews started (fairness), each replica's peak RSS and Redis's memory.
//
//   node_modules/.bin/node bench/fleet-load.ts        # all three runs (about 8 minutes)
//   BENCH_RUNS=fleet,kill node_modules/.bin/node bench/fleet-load.ts

import crypto from "node:crypto";
import os from "node:os";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../test/support/loupe-process.ts";
import { startRedisServer } from "../test/support/redis-server.ts";
import { deliverWebhook } from "../test/support/webhook-delivery.ts";
import { type BenchPullRequest, buildWorld } from "./app-fixture.ts";

const SECRET = `bench-${crypto.randomUUID()}`;
const COUNTS = [40, 7, 7, 6];
const CONCURRENCY = 2;
/** 1–3 s per model turn, spread evenly and the same in every run. */
const turnDelay = (turn: number) => 1000 + ((turn * 7919) % 2001);

/** A run that has not finished by then is reported with what it left open, not waited for. */
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 900) * 1000;
const seconds = (ms: number) => Number((ms / 1000).toFixed(1));

async function run(name: string, replicaCount: number, kill: boolean): Promise<Record<string, unknown>> {
  const redis = await startRedisServer();
  const world = await buildWorld({
    repos: COUNTS.length,
    prsPerRepo: COUNTS,
    turns: 400,
    delayMs: turnDelay,
  });
  const start = () =>
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
          FLEET_LOCK_SECONDS: "10",
          // Each turn takes 1–3 s: progress updates every second would be most of GitHub's load.
          CHECK_RUN_PROGRESS_SECONDS: "30",
        },
      }),
    });
  const replicas: LoupeProcess[] = await Promise.all(Array.from({ length: replicaCount }, start));
  const startedAt = new Map<number, number>(); // check run id → ms since t0
  const t0 = performance.now();
  const watcher = setInterval(() => {
    for (const check of world.github.checkRuns) {
      if (!startedAt.has(check.id) && check.history.some((h) => h.status === "in_progress")) {
        startedAt.set(check.id, performance.now() - t0);
      }
    }
  }, 50);
  // The big installation first, all at once; then the three small ones.
  const byInstallation = (n: number) => world.pulls.filter((p) => p.owner === `org${n}`);
  const send = (pr: BenchPullRequest, i: number) =>
    deliverWebhook({
      url: replicas[i % replicas.length]!.webhookUrl,
      event: "pull_request",
      payload: pr.payload("opened"),
      secret: SECRET,
    });
  const statuses = [
    ...(await Promise.all(byInstallation(1).map(send))),
    ...(await Promise.all([2, 3, 4].flatMap((n) => byInstallation(n)).map(send))),
  ].map((r) => r.status);
  let killedAt: number | null = null;
  const done = () => world.github.checkRuns.filter((c) => c.history.at(-1)?.status === "completed").length;
  for (;;) {
    if (kill && killedAt === null && done() >= 15) {
      const victim = replicas[0]!;
      process.kill(-victim.pid, "SIGKILL");
      await victim.exited;
      killedAt = performance.now() - t0;
    }
    if (world.github.checkRuns.length >= world.pulls.length && done() === world.github.checkRuns.length)
      break;
    if (performance.now() - t0 > DEADLINE_MS) break; // reported below as runs left open
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const wallMs = performance.now() - t0;
  clearInterval(watcher);
  const conclusions: Record<string, number> = {};
  for (const check of world.github.checkRuns) {
    const c = String(check.history.at(-1)?.conclusion);
    conclusions[c] = (conclusions[c] ?? 0) + 1;
  }
  const postsPerSha = new Map<string, number>();
  for (const review of world.github.reviews)
    postsPerSha.set(review.commitId, (postsPerSha.get(review.commitId) ?? 0) + 1);
  const fairness: Record<string, unknown> = {};
  for (let n = 1; n <= COUNTS.length; n++) {
    const ids = world.github.checkRuns
      .filter((c) => c.owner === `org${n}`)
      .map((c) => startedAt.get(c.id) ?? Number.NaN);
    ids.sort((a, b) => a - b);
    fairness[`org${n} (${COUNTS[n - 1]} PRs)`] = {
      first_start_s: seconds(ids[0]!),
      median_start_s: seconds(ids[Math.floor(ids.length / 2)]!),
      last_start_s: seconds(ids.at(-1)!),
    };
  }
  const memory = redis.cli("INFO", "memory");
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, "m").exec(memory)?.[1]?.trim();
  const result = {
    run: name,
    replicas: replicaCount,
    webhook_statuses: [...new Set(statuses)],
    wall_s: seconds(wallMs),
    check_runs: world.github.checkRuns.length,
    conclusions,
    double_posts: [...postsPerSha.values()].filter((n) => n > 1).length,
    reviews_posted: world.github.reviews.length,
    left_open: world.github.checkRuns
      .filter((c) => c.history.at(-1)?.status !== "completed")
      .map((c) => `${c.owner}#${c.headSha.slice(0, 7)} ${c.history.map((h) => h.status).join(">")}`),
    pulls_without_run: world.pulls.filter(
      (p) => !world.github.checkRuns.some((c) => c.headSha === p.facts.headSha),
    ).length,
    killed_replica_at_s: killedAt === null ? null : seconds(killedAt),
    fairness,
    peak_rss_mb: replicas.map((r) => Math.round((r.peakRssKiB() ?? 0) / 1024)),
    redis_used_memory_peak: field("used_memory_peak_human"),
    redis_used_memory: field("used_memory_human"),
  };
  for (const loupe of replicas) await loupe.stop(5000);
  await world.stop();
  await redis.stop();
  return result;
}

const runs = (process.env.BENCH_RUNS ?? "single,fleet,kill").split(",");
const results: Record<string, unknown>[] = [];
console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
);
if (runs.includes("single")) results.push(await run("1 replica (reference)", 1, false));
if (runs.includes("fleet")) results.push(await run("3 replicas", 3, false));
if (runs.includes("kill")) results.push(await run("3 replicas, one SIGKILLed", 3, true));
for (const result of results) console.log(JSON.stringify(result, null, 2));
const single = results.find((r) => r.replicas === 1);
const fleet = results.find((r) => r.run === "3 replicas");
if (single && fleet) {
  console.log(
    `throughput ratio (3 replicas / 1): ${((single.wall_s as number) / (fleet.wall_s as number)).toFixed(2)}`,
  );
}
