// The metrics port over prom-client, on a registry of its own (never the library's global one),
// so a process has exactly one and every test can build and read a fresh one.

import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Metrics, QueueStats } from "./metrics.ts";

export interface PrometheusMetrics extends Metrics {
  readonly registry: Registry;
  /** The exposition text and its content type, for GET /metrics. */
  render(): Promise<{ readonly contentType: string; readonly body: string }>;
}

/** Reviews take seconds to many minutes (REVIEW_TIMEOUT_MS caps them at 30). */
const DURATION_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800];

export interface BuildInfo {
  /** Loupe's version (package.json). */
  readonly version: string;
}

export function createPrometheusMetrics(build: BuildInfo = { version: "unknown" }): PrometheusMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: "loupe_build_info",
    help: "Always 1; the labels say which Loupe and which Node this process runs",
    labelNames: ["version", "node"] as const,
    registers: [registry],
  }).set({ version: build.version, node: process.versions.node }, 1);
  const dependencyErrors = new Counter({
    name: "loupe_dependency_errors_total",
    help: "Errors talking to a dependency (github, provider, redis), by kind (connection_refused, timeout, server_error...)",
    labelNames: ["dependency", "kind"] as const,
    registers: [registry],
  });
  const reviews = new Counter({
    name: "loupe_reviews_total",
    help: "Reviews ended, by termination reason (none: the loop did not run) and check-run conclusion",
    labelNames: ["termination_reason", "conclusion"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "loupe_review_duration_seconds",
    help: "Wall time of a review job, from its start to its check run's completion",
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const tokens = new Counter({
    name: "loupe_provider_tokens_total",
    help: "Tokens the model provider reported, by kind (prompt, completion)",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const billed = new Counter({
    name: "loupe_tokens_total",
    help: "Tokens of reviews as providers bill them, by kind (input, cached_input, output)",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const dollars = new Counter({
    name: "loupe_cost_dollars_total",
    help: "Dollars reviews cost, by the provider's reported cost or the operator's REVIEW_PRICE_* (unpriced reviews add nothing)",
    registers: [registry],
  });
  const toolCalls = new Counter({
    name: "loupe_tool_calls_total",
    help: "Repository tool calls the model made, by tool and whether the tool succeeded",
    labelNames: ["tool", "ok"] as const,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: "loupe_webhook_deliveries_total",
    help: "Webhook deliveries Loupe handled, by event and what became of them",
    labelNames: ["event", "outcome"] as const,
    registers: [registry],
  });
  const replies = new Counter({
    name: "loupe_thread_replies_total",
    help: "Replies in Loupe's review threads, by outcome (answered, failed, skipped, cancelled)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  let queueStats: () => QueueStats | Promise<QueueStats> = () => ({ running: 0, pending: 0 });
  new Gauge({
    name: "loupe_queue_jobs",
    help: "Review jobs by state: waiting and delayed in the queue (the fleet's, with REDIS_URL), running in this process",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const stats = await queueStats();
      this.set({ state: "waiting" }, stats.pending);
      this.set({ state: "delayed" }, stats.delayed ?? 0);
      this.set({ state: "running" }, stats.running);
    },
  });

  return {
    registry,
    reviewEnded(report) {
      reviews.inc({ termination_reason: report.terminationReason, conclusion: report.conclusion });
      duration.observe(report.durationSeconds);
      if (report.promptTokens > 0) tokens.inc({ kind: "prompt" }, report.promptTokens);
      if (report.completionTokens > 0) tokens.inc({ kind: "completion" }, report.completionTokens);
      billed.inc({ kind: "input" }, report.spend.input_tokens);
      billed.inc({ kind: "cached_input" }, report.spend.cached_input_tokens);
      billed.inc({ kind: "output" }, report.spend.output_tokens);
      if (report.dollars !== null) dollars.inc(report.dollars);
    },
    replyEnded(report) {
      replies.inc({ outcome: report.outcome });
      if (report.promptTokens > 0) tokens.inc({ kind: "prompt" }, report.promptTokens);
      if (report.completionTokens > 0) tokens.inc({ kind: "completion" }, report.completionTokens);
    },
    toolCall(tool, ok) {
      toolCalls.inc({ tool, ok: ok ? "true" : "false" });
    },
    webhookDelivery(event, outcome) {
      deliveries.inc({ event, outcome });
    },
    watchQueue(stats) {
      queueStats = stats;
    },
    dependencyError(dependency, kind) {
      dependencyErrors.inc({ dependency, kind });
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
