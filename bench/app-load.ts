// The GitHub App under load, as a real server process (`node src/server.ts`) against the fake
// GitHub and a scripted model that answers after a delay, so reviews are running meanwhile.
//
//   node_modules/.bin/node bench/app-load.ts            # both phases
//   BENCH_PHASE=ack|queue node_modules/.bin/node bench/app-load.ts
//
// Phase "ack": 50 PRs get a review queued and the model is already being asked; then 200 signed
// webhook deliveries, 20 in flight at a time, mixed actions on those PRs (opened / synchronize /
// reopened are deduped against the queued or running review; labeled is skipped): the latency of
// each answer. Target p99 ≤ 50 ms.
// Phase "queue": 50 PRs queued at REVIEW_CONCURRENCY=2; every check run must complete, and the
// server's peak RSS (VmHWM) must stay ≤ 512 MB.

import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import http from "node:http";
import os from "node:os";
import { type LoupeProcess, startLoupeProcess } from "../test/support/loupe-process.ts";
import { deliverWebhook } from "../test/support/webhook-delivery.ts";
import { type BenchWorld, buildWorld } from "./app-fixture.ts";

const SECRET = `bench-${crypto.randomUUID()}`;
const REPOS = Number(process.env.BENCH_REPOS ?? 5);
const DELAY_MS = Number(process.env.BENCH_PROVIDER_DELAY_MS ?? 300);

async function startLoupe(world: BenchWorld, concurrency: number): Promise<LoupeProcess> {
  return startLoupeProcess({
    command: "node",
    env: {
      APP_ID: world.github.appId,
      PRIVATE_KEY: world.github.privateKey,
      WEBHOOK_SECRET: SECRET,
      GHE_HOST: world.github.host,
      GHE_PROTOCOL: "http",
      OPENAI_BASE_URL: world.provider.baseURL,
      OPENAI_API_KEY: `test-key-${crypto.randomUUID()}`,
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      REVIEW_CONCURRENCY: String(concurrency),
      SHUTDOWN_GRACE_SECONDS: "0",
    },
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

async function ackPhase(): Promise<Record<string, unknown>> {
  const prs = 50;
  const world = await buildWorld({ repos: REPOS, prsPerRepo: prs / REPOS, turns: 400, delayMs: DELAY_MS });
  const loupe = await startLoupe(world, 2);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
  const actions = ["opened", "synchronize", "reopened", "labeled"];
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < 200; i = next++) {
      const pr = world.pulls[i % world.pulls.length]!;
      const result = await deliverWebhook({
        url: loupe.webhookUrl,
        event: "pull_request",
        payload: pr.payload(actions[Math.floor(i / world.pulls.length) % actions.length]!),
        secret: SECRET,
        agent,
      });
      latencies.push(result.latencyMs);
      statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
    }
  };
  // Queue a review for every PR first and wait until the model is being asked: reviews run
  // while the measured deliveries arrive.
  for (const pr of world.pulls) {
    await deliverWebhook({
      url: loupe.webhookUrl,
      event: "pull_request",
      payload: pr.payload("opened"),
      secret: SECRET,
    });
  }
  while (world.provider.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
  const began = performance.now();
  await Promise.all(Array.from({ length: 20 }, worker));
  const elapsed = performance.now() - began;
  const runningChecks = world.github.checkRuns.filter((r) => r.history.at(-1)?.status !== "completed").length;
  const providerCalls = world.provider.requests.length;
  const peak = loupe.peakRssKiB();
  agent.destroy();
  await loupe.stop(5000);
  await world.stop();
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    deliveries: latencies.length,
    statuses: Object.fromEntries(statuses),
    p50: ms(percentile(sorted, 50)),
    p95: ms(percentile(sorted, 95)),
    p99: ms(percentile(sorted, 99)),
    max: ms(sorted.at(-1)!),
    throughput_per_s: Math.round((latencies.length / elapsed) * 1000),
    target_p99: "≤ 50 ms",
    reviews_in_flight_at_end: { check_runs_not_completed: runningChecks, provider_requests: providerCalls },
    peak_rss_mb: peak === undefined ? null : Math.round(peak / 1024),
  };
}

async function queuePhase(): Promise<Record<string, unknown>> {
  const prs = 50;
  const world = await buildWorld({
    repos: REPOS,
    prsPerRepo: prs / REPOS,
    turns: 4 * prs,
    delayMs: DELAY_MS,
  });
  const loupe = await startLoupe(world, 2);
  const started = performance.now();
  for (const pr of world.pulls) {
    const result = await deliverWebhook({
      url: loupe.webhookUrl,
      event: "pull_request",
      payload: pr.payload("opened"),
      secret: SECRET,
    });
    if (result.status >= 300) throw new Error(`delivery answered ${result.status}`);
  }
  const completed = () => world.github.checkRuns.filter((r) => r.history.at(-1)?.status === "completed");
  let peakRunning = 0;
  while (completed().length < prs) {
    const running = world.github.checkRuns.filter((r) => r.history.at(-1)?.status === "in_progress").length;
    peakRunning = Math.max(peakRunning, running);
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (performance.now() - started > 15 * 60_000) break; // a stuck run must not hang the bench forever
  }
  const wall = performance.now() - started;
  const peak = loupe.peakRssKiB();
  const conclusions: Record<string, number> = {};
  for (const run of completed()) {
    const c = String(run.history.at(-1)?.conclusion);
    conclusions[c] = (conclusions[c] ?? 0) + 1;
  }
  const result = {
    pull_requests: prs,
    installations: REPOS,
    check_runs_created: world.github.checkRuns.length,
    check_runs_completed: completed().length,
    conclusions,
    reviews_posted: world.github.reviews.length,
    rejected_422: world.github.requests.filter((r) => r.status === 422).length,
    peak_in_progress: peakRunning,
    wall_s: (wall / 1000).toFixed(1),
    peak_rss_mb: peak === undefined ? null : Math.round(peak / 1024),
    target_rss: "≤ 512 MB",
  };
  await loupe.stop(5000);
  await world.stop();
  return result;
}

function machine(): Record<string, string> {
  const free = execFileSync("free", ["-h"], { encoding: "utf8" }).split("\n")[1]?.replace(/\s+/g, " ") ?? "";
  return {
    nproc: String(os.availableParallelism()),
    cpu: os.cpus()[0]?.model ?? "?",
    free: free.trim(),
    node: process.version,
  };
}

const phase = process.env.BENCH_PHASE ?? "all";
const report: Record<string, unknown> = { machine: machine(), provider_delay_ms: DELAY_MS };
if (phase === "all" || phase === "ack") report.ack = await ackPhase();
if (phase === "all" || phase === "queue") report.queue = await queuePhase();
console.log(JSON.stringify(report, null, 2));
