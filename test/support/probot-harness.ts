// Loupe as a Probot app inside the test process: a real Probot (app id 123, a freshly generated
// RSA key, so the installation-token exchange really happens over nock), Probot's Octokit with
// retry and throttling off (the function form: the object form leaves Bottleneck's 1 s write
// spacing on), a pino logger writing into an array, and Loupe's real ports pointed at a local git
// server and a scripted provider. GitHub's REST API is nock on https://api.github.com;
// 127.0.0.1 stays reachable for the git server and the provider.
//
//   const h = await createProbotHarness({ providerBaseURL, gitBaseUrl });
//   await h.receive("pull_request", payload, "delivery-1");
//   await h.drain();
//   h.logs()   // every captured log line (JSON)

import { generateKeyPairSync } from "node:crypto";
import { Writable } from "node:stream";
import nock from "nock";
import { pino } from "pino";
import { Probot, ProbotOctokit } from "probot";
import { createLoupeApp } from "../../src/app.ts";
import type { AppConfig } from "../../src/config/app-config.ts";
import type { ProviderConfig, ToolCallMode } from "../../src/config/provider-config.ts";
import { DEFAULT_REPLY_LIMITS } from "../../src/config/reply-limits.ts";
import { DEFAULT_REVIEW_LIMITS, type ReviewLimits } from "../../src/config/review-limits.ts";
import { WORKER_MEMORY_MB } from "../../src/config/worker-config.ts";
import { DEFAULT_AUTHOR_POLICY } from "../../src/domain/author-policy.ts";
import { loadFleet } from "../../src/fleet/fleet.ts";
import { createIsolatedPorts } from "../../src/isolation/isolated-ports.ts";
import { repositoryWorkerEntry } from "../../src/isolation/worker-entry.ts";
import { createWorkerPool } from "../../src/isolation/worker-pool.ts";
import { deadlineGraceMs } from "../../src/isolation/worker-thread.ts";
import { createDefaultPorts } from "../../src/jobs/default-ports.ts";
import type { ReviewQueue } from "../../src/jobs/review-queue.ts";
import type { ReviewPorts } from "../../src/pipeline/review-ports.ts";
import type { ReplyQueue } from "../../src/replies/reply-queue.ts";

export const APP_ID = 123;
export const PROVIDER_KEY = "sk-test-provider-key-7f3a9c1e5b";

let cachedKey: string | null = null;
/** One RSA key per test file (generating it takes a moment); Probot signs its app JWT with it. */
export function testPrivateKey(): string {
  cachedKey ??= generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  return cachedKey;
}

// biome-ignore lint/suspicious/noExplicitAny: Probot's defaults() callback receives untyped options.
const TestOctokit = ProbotOctokit.defaults((o: any) => ({
  ...o,
  retry: { enabled: false },
  throttle: { ...o.throttle, enabled: false },
}));

export interface ProbotHarnessOptions {
  readonly providerBaseURL: string;
  /** e.g. http://127.0.0.1:PORT — repositories are fetched from `<gitBaseUrl>/<owner>/<repo>.git`. */
  readonly gitBaseUrl: string;
  readonly limits?: Partial<ReviewLimits>;
  /** A thread reply's budgets; the review's with the reply defaults when omitted. */
  readonly replyLimits?: Partial<ReviewLimits>;
  readonly config?: Partial<AppConfig>;
  /** Wraps the real ports (e.g. to hold the loop until a test lets it go). */
  readonly ports?: (real: ReviewPorts) => ReviewPorts;
  /** When omitted, Loupe looks its login up with GET /app, so the test must mock it. */
  readonly botLogin?: string;
  /** REVIEW_TOOL_CALLS; default auto, as in production. */
  readonly toolCalls?: ToolCallMode;
  /** REDIS_URL: the fleet's queues on this Redis instead of the process's own. */
  readonly redisUrl?: string;
  /** The clock of the commenters' permission cache. */
  readonly now?: () => number;
  /**
   * The repository work in worker threads, as the server runs it (src/isolation), instead of in
   * this thread; `ports` is not used then. `entry`: a worker script of the test's own;
   * `graceMs`: how long a worker past its deadline or asked to stop is waited for before it is
   * terminated (the server's: deadlineGraceMs of the review's time, at least 2 s).
   */
  readonly isolation?: { readonly entry?: URL; readonly memoryMb?: number; readonly graceMs?: number };
}

export interface ProbotHarness {
  readonly probot: Probot;
  readonly queue: ReviewQueue;
  /** The queue of replies in Loupe's threads. */
  readonly replies: ReplyQueue;
  /** Waits Loupe was asked to do (secondary rate limits), in ms; the sleep itself returns at once. */
  readonly sleeps: number[];
  receive(name: string, payload: unknown, id?: string): Promise<void>;
  drain(): Promise<void>;
  /** Resolves when the runs an earlier process left open (config.stateDir) have been dealt with. */
  recovered(): Promise<void>;
  logs(): string[];
  /** Ends the repository workers (with `isolation`); call it when the test is done. */
  close(): Promise<void>;
}

let deliveries = 0;

export async function createProbotHarness(options: ProbotHarnessOptions): Promise<ProbotHarness> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString("utf8")
          .split("\n")
          .filter((l) => l !== ""),
      );
      done();
    },
  });
  const log = pino({ level: "trace" }, stream);
  const probot = new Probot({
    appId: APP_ID,
    privateKey: testPrivateKey(),
    secret: "test-webhook-secret",
    Octokit: TestOctokit,
    log,
  });
  const host = new URL(options.gitBaseUrl).host;
  const config: AppConfig = {
    reviewConcurrency: 2,
    replyConcurrency: 2,
    shutdownGraceMs: 0,
    checkRunName: "Loupe review",
    progressIntervalMs: 1,
    gitBaseUrl: options.gitBaseUrl,
    gitHost: host,
    stateDir: null,
    autoReviewAuthors: DEFAULT_AUTHOR_POLICY,
    stillDownLogMs: 60_000,
    // Each review reads the organisation's file (github-mock pairs it with the repository's own
    // read); keeping it is the cache's own test's, and the end-to-end worlds'.
    organisationConfigTtlMs: 0,
    ...options.config,
  };
  // Tests script only the reviewer unless they turn the verification pass on (docs/verification.md).
  const limits: ReviewLimits = { ...DEFAULT_REVIEW_LIMITS, verify: false, ...options.limits };
  const providerConfig: ProviderConfig = {
    baseURL: options.providerBaseURL,
    apiKey: PROVIDER_KEY,
    model: "deepseek-v4-flash",
    maxResponseBytes: limits.maxResponseBytes,
    maxRetries: 0,
    // The operator's default, so every App test also runs auto mode's native path.
    toolCalls: options.toolCalls ?? "auto",
  };
  const replyLimits = { ...limits, ...DEFAULT_REPLY_LIMITS, ...options.replyLimits };
  const real = createDefaultPorts({ provider: providerConfig, limits, replyLimits });
  const sleeps: number[] = [];
  const pool =
    options.isolation === undefined
      ? null
      : createWorkerPool({
          size: config.reviewConcurrency,
          entry: options.isolation.entry ?? repositoryWorkerEntry(),
          setup: { provider: providerConfig, limits, replyLimits, includeTrace: true },
          memoryMb: options.isolation.memoryMb ?? WORKER_MEMORY_MB.default,
          graceMs: options.isolation.graceMs ?? deadlineGraceMs(limits.timeoutMs),
          onWorkerEnded: (reason) => log.warn({ reason }, "repository worker ended"),
        });
  const common = {
    config,
    appId: APP_ID,
    ...(options.botLogin === undefined ? {} : { botLogin: options.botLogin }),
    ...(options.redisUrl === undefined ? {} : { fleet: await loadFleet(options.redisUrl) }),
    ...(options.now === undefined ? {} : { now: options.now }),
    sleep: async (ms: number) => {
      sleeps.push(ms);
    },
  };
  const loupe =
    pool === null
      ? createLoupeApp({ ...common, ports: options.ports ? options.ports(real) : real })
      : createLoupeApp({ ...common, ports: createIsolatedPorts({ pool, limits, replyLimits }) });
  await probot.load(loupe.app);
  const { reviews: q, replies: r, recovery } = await loupe.started;
  return {
    probot,
    queue: q,
    replies: r,
    sleeps,
    receive: (name, payload, id) =>
      // biome-ignore lint/suspicious/noExplicitAny: test payloads are adapted example JSON.
      probot.receive({ name, id: id ?? `delivery-${++deliveries}`, payload } as any),
    // Reviews and replies: a reply never queues a review, nor a review a reply.
    drain: async () => {
      await q.drain();
      await r.drain();
    },
    recovered: () => recovery,
    logs: () => [...lines],
    close: async () => {
      await pool?.close();
    },
  };
}

/** No network but 127.0.0.1 (the git server and the scripted provider). Call in beforeAll. */
export function isolateNetwork(): void {
  if (!nock.isActive()) nock.activate();
  nock.disableNetConnect();
  nock.enableNetConnect("127.0.0.1");
}

/**
 * Call in afterAll. nock patches Node's shared `http`/`net` modules, while jest gives every test
 * file its own nock instance in the same worker: without `restore()` the next file's nock would
 * be installed over this one and both would fight over each socket.
 */
export function releaseNetwork(): void {
  nock.cleanAll();
  nock.enableNetConnect();
  nock.restore();
}
