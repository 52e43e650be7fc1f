// The GitHub App under load, as a real server process (`node src/server.ts`) against the fake
// GitHub and a scripted model that answers after a delay, so reviews are running meanwhile.
//
//   node_modules/.bin/node bench/app-load.ts            # both phases
//   BENCH_PHASE=ack|queue node_modules/.bin/node bench/app-load.ts
//
// Phase "ack": 50 PRs get a review queued and the model is already being asked; then two bursts
// of 200 signed webhook deliveries, 20 in flight at a time, mixed actions on those PRs (opened /
// synchronize / reopened are deduped against the queued or running review; labeled is skipped),
// sent from a process of their own (webhook-sender.ts): the latency of each answer, per burst.
// Target p99 ≤ 50 ms. BENCH_LOUPE_NODE_OPTIONS is passed to the server as NODE_OPTIONS (e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/prof" to see where its time goes).
// Phase "queue": 50 PRs queued at REVIEW_CONCURRENCY=2; every check run must complete, and the
// server's peak RSS (VmHWM) must stay ≤ 512 MB.

import { execFileSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import os from "node:os";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../test/support/loupe-process.ts";
import { deliverWebhook, signWebhookBody } from "../test/support/webhook-delivery.ts";
import { type BenchWorld, buildWorld } from "./app-fixture.ts";

const SECRET = `bench-${crypto.randomUUID()}`;
const REPOS = Number(process.env.BENCH_REPOS ?? 5);
const DELAY_MS = Number(process.env.BENCH_PROVIDER_DELAY_MS ?? 300);

async function startLoupe(world: BenchWorld, concurrency: number): Promise<LoupeProcess> {
  return startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github: world.github,
      providerBaseURL: world.provider.baseURL,
      webhookSecret: SECRET,
      apiKey: `test-key-${crypto.randomUUID()}`,
      extra: {
        LOG_LEVEL: "warn",
        REVIEW_CONCURRENCY: String(concurrency),
        SHUTDOWN_GRACE_SECONDS: "0",
        ...(process.env.BENCH_LOUPE_NODE_OPTIONS
          ? { NODE_OPTIONS: process.env.BENCH_LOUPE_NODE_OPTIONS }
          : {}),
      },
    }),
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

interface SignedDelivery {
  readonly event: string;
  readonly id: string;
  readonly body: string;
  readonly signature: string;
}

interface BurstResult {
  readonly latencies: number[];
  readonly statuses: Record<string, number>;
  readonly elapsedMs: number;
}

/** Runs bench/webhook-sender.ts as a child process and returns what it measured, per burst. */
function sendFromOwnProcess(input: {
  url: string;
  concurrency: number;
  bursts: SignedDelivery[][];
}): Promise<BurstResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [new URL("./webhook-sender.ts", import.meta.url).pathname], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`webhook-sender exited ${code}`)),
    );
    child.stdin.end(JSON.stringify(input));
  });
}

function summarise(burst: BurstResult): Record<string, unknown> {
  const sorted = [...burst.latencies].sort((a, b) => a - b);
  return {
    deliveries: sorted.length,
    statuses: burst.statuses,
    p50: ms(percentile(sorted, 50)),
    p95: ms(percentile(sorted, 95)),
    p99: ms(percentile(sorted, 99)),
    max: ms(sorted.at(-1)!),
    throughput_per_s: Math.round((sorted.length / burst.elapsedMs) * 1000),
  };
}

async function ackPhase(): Promise<Record<string, unknown>> {
  const prs = 50;
  const world = await buildWorld({ repos: REPOS, prsPerRepo: prs / REPOS, turns: 400, delayMs: DELAY_MS });
  const loupe = await startLoupe(world, 2);
  const actions = ["opened", "synchronize", "reopened", "labeled"];
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
  const burst = () =>
    Array.from({ length: 200 }, (_, i) => {
      const pr = world.pulls[i % world.pulls.length]!;
      const body = JSON.stringify(pr.payload(actions[Math.floor(i / world.pulls.length) % actions.length]!));
      return {
        event: "pull_request",
        id: crypto.randomUUID(),
        body,
        signature: signWebhookBody(body, SECRET),
      };
    });
  // Two bursts over the same connections: the first meets a server that has just started (new
  // sockets, handler code not yet optimised), the second the server as it runs for days.
  const [first, second] = await sendFromOwnProcess({
    url: loupe.webhookUrl,
    concurrency: 20,
    bursts: [burst(), burst()],
  });
  const runningChecks = world.github.checkRuns.filter((r) => r.history.at(-1)?.status !== "completed").length;
  const providerCalls = world.provider.requests.length;
  const peak = loupe.peakRssKiB();
  await loupe.stop(5000);
  await world.stop();
  return {
    first_burst: summarise(first!),
    second_burst: summarise(second!),
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
  let peakQueued = 0; // waiting reviews show a queued check run
  while (completed().length < prs) {
    const status = (wanted: string) =>
      world.github.checkRuns.filter((r) => r.history.at(-1)?.status === wanted);
    peakRunning = Math.max(peakRunning, status("in_progress").length);
    peakQueued = Math.max(peakQueued, status("queued").length);
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
    peak_queued: peakQueued,
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
