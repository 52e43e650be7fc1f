// Every series Loupe exports, declared once on the process's registry: what each counts and by
// which labels. Labels are small closed sets only (metrics.ts); the port that feeds them is
// prometheus-metrics.ts.

import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** Reviews take seconds to many minutes (REVIEW_TIMEOUT_MS caps them at 30). */
const DURATION_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800];

export interface BuildInfo {
  /** Loupe's version (package.json). */
  readonly version: string;
}

function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]) {
  return new Counter<L>({ name, help, labelNames, registers: [registry] });
}

export function createSeries(registry: Registry, build: BuildInfo) {
  new Gauge({
    name: "loupe_build_info",
    help: "Always 1; the labels say which Loupe and which Node this process runs",
    labelNames: ["version", "node"] as const,
    registers: [registry],
  }).set({ version: build.version, node: process.versions.node }, 1);
  return {
    dependencyErrors: counter(
      registry,
      "loupe_dependency_errors_total",
      "Errors talking to a dependency (github, gitlab, provider, redis), by kind (connection_refused, tls, timeout, server_error...)",
      ["dependency", "kind"],
    ),
    reviews: counter(
      registry,
      "loupe_reviews_total",
      "Reviews ended, by termination reason (none: the loop did not run) and check-run conclusion",
      ["termination_reason", "conclusion"],
    ),
    duration: new Histogram({
      name: "loupe_review_duration_seconds",
      help: "Wall time of a review job, from its start to its check run's completion",
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    tokens: counter(
      registry,
      "loupe_provider_tokens_total",
      "Tokens the model provider reported, by kind (prompt, completion)",
      ["kind"],
    ),
    billed: counter(
      registry,
      "loupe_tokens_total",
      "Tokens of reviews and replies as providers bill them, by kind (input, cached_input, output)",
      ["kind"],
    ),
    dollars: counter(
      registry,
      "loupe_cost_dollars_total",
      "Dollars reviews and replies cost, by the provider's reported cost or the operator's REVIEW_PRICE_* (unpriced ones add nothing)",
      [],
    ),
    toolCalls: counter(
      registry,
      "loupe_tool_calls_total",
      "Repository tool calls the model made, by tool and whether the tool succeeded",
      ["tool", "ok"],
    ),
    deliveries: counter(
      registry,
      "loupe_webhook_deliveries_total",
      "Webhook deliveries Loupe handled, by event and what became of them",
      ["event", "outcome"],
    ),
    findings: counter(
      registry,
      "loupe_findings_total",
      "What became of Loupe's findings: posted (new in a review), fixed (Loupe resolved its thread), withdrawn or dismissed (in a reply in its thread) — a production precision signal",
      ["event"],
    ),
    providerWaiting: new Gauge({
      name: "loupe_provider_requests_waiting",
      help: "Model requests of this process waiting for their share of the provider (PROVIDER_MAX_IN_FLIGHT, PROVIDER_TOKENS_PER_MINUTE, a shared back-off)",
      registers: [registry],
    }),
    providerTokens: new Gauge({
      name: "loupe_provider_tokens_per_minute",
      help: "Tokens the fleet's model requests used in the last minute, as this process last saw it (estimated until a request's answer counts them)",
      registers: [registry],
    }),
    providerBackOff: counter(
      registry,
      "loupe_provider_back_off_seconds_total",
      "Seconds of back-off the provider asked for (HTTP 429 with Retry-After), every replica waiting them",
      [],
    ),
    replies: counter(
      registry,
      "loupe_thread_replies_total",
      "Replies in Loupe's review threads, by outcome (answered, failed, skipped, refused, cancelled)",
      ["outcome"],
    ),
  };
}
