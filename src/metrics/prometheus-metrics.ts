// The metrics port over prom-client, on a registry of its own (never the library's global one),
// so a process has exactly one and every test can build and read a fresh one.

import { collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { createBudgetGauge } from "./budget-gauge.ts";
import { type BuildInfo, createSeries } from "./metric-series.ts";
import type { Metrics, QueueStats, ReplyEndedReport, ReviewEndedReport } from "./metrics.ts";

export interface PrometheusMetrics extends Metrics {
  readonly registry: Registry;
  /** The exposition text and its content type, for GET /metrics. */
  render(): Promise<{ readonly contentType: string; readonly body: string }>;
}

export type { BuildInfo } from "./metric-series.ts";

export function createPrometheusMetrics(
  build: BuildInfo = { version: "unknown" },
  /** The clock budget counters' periods end on (the budget's own). */
  now: () => number = Date.now,
): PrometheusMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const {
    dependencyErrors,
    reviews,
    duration,
    tokens,
    billed,
    dollars,
    toolCalls,
    deliveries,
    replies,
    findings,
    providerWaiting,
    providerTokens,
    providerBackOff,
  } = createSeries(registry, build);
  let queueStats: () => QueueStats | Promise<QueueStats> = () => ({ running: 0, pending: 0 });
  const budgetUsed = createBudgetGauge(registry, now);
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

  const spent = (report: ReviewEndedReport | ReplyEndedReport): void => {
    if (report.promptTokens > 0) tokens.inc({ kind: "prompt" }, report.promptTokens);
    if (report.completionTokens > 0) tokens.inc({ kind: "completion" }, report.completionTokens);
    billed.inc({ kind: "input" }, report.spend.input_tokens);
    billed.inc({ kind: "cached_input" }, report.spend.cached_input_tokens);
    billed.inc({ kind: "output" }, report.spend.output_tokens);
    if (report.dollars !== null) dollars.inc(report.dollars);
  };

  return {
    registry,
    reviewEnded(report) {
      reviews.inc({ termination_reason: report.terminationReason, conclusion: report.conclusion });
      duration.observe(report.durationSeconds);
      spent(report);
      findings.inc({ event: "posted" }, report.findingsPosted);
      findings.inc({ event: "fixed" }, report.findingsFixed);
    },
    replyEnded(report) {
      replies.inc({ outcome: report.outcome });
      // A reply's verdict that the finding was wrong (withdrawn) or that a writer rejected it.
      if (report.findingStatus === "withdrawn" || report.findingStatus === "dismissed")
        findings.inc({ event: report.findingStatus });
      // A reply's spend is counted with the reviews': the same bill, the same budgets.
      spent(report);
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
    providerWaiting(delta) {
      providerWaiting.inc(delta);
    },
    providerTokensInMinute(tokens) {
      providerTokens.set(tokens);
    },
    providerBackOff(seconds) {
      providerBackOff.inc(seconds);
    },
    budgetUsed,
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
