// The operator's endpoints on a real node:http server on 127.0.0.1, with the real prom-client
// registry behind /metrics.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "@jest/globals";
import { createOpsRoutes, type Readiness } from "../../../src/http/ops-routes.ts";
import { createReadinessTracker } from "../../../src/http/readiness.ts";
import { observeToolCalls } from "../../../src/metrics/observed-tools.ts";
import { createPrometheusMetrics } from "../../../src/metrics/prometheus-metrics.ts";
import { createReviewEndedReporter } from "../../../src/metrics/review-ended.ts";
import type { ToolRegistry } from "../../../src/tools/types.ts";

let server: http.Server | null = null;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

async function serve(handler: ReturnType<typeof createOpsRoutes>): Promise<string> {
  server = http.createServer(async (req, res) => {
    if (!(await handler(req, res))) res.writeHead(404).end("not mine");
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const sample = (text: string, series: string) =>
  text
    .split("\n")
    .find((line) => line.startsWith(`${series} `))
    ?.split(" ")[1];

describe("/healthz and /readyz", () => {
  it("answers alive always, ready only when the server says so (503 with the reason)", async () => {
    let state: Readiness = { ready: false, reason: "starting" };
    const url = await serve(createOpsRoutes({ readiness: () => state, metrics: null, metricsToken: null }));
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const starting = await fetch(`${url}/readyz`);
    expect(starting.status).toBe(503);
    expect(await starting.text()).toBe("not ready: starting\n");
    state = { ready: true };
    expect((await fetch(`${url}/readyz?verbose=1`)).status).toBe(200);
    state = { ready: false, reason: "shutting down" };
    expect(await (await fetch(`${url}/readyz`)).text()).toBe("not ready: shutting down\n");
    // Not its paths or methods: left to the next handler; no metrics source: no /metrics.
    expect(await (await fetch(`${url}/metrics`)).text()).toBe("not mine");
    expect(await (await fetch(`${url}/healthz`, { method: "POST" })).text()).toBe("not mine");
  });
});

describe("/metrics", () => {
  it("counts what the ports report, by closed label sets only", async () => {
    const metrics = createPrometheusMetrics();
    const lines: object[] = [];
    const ended = createReviewEndedReporter(metrics, { info: (obj) => lines.push(obj) });
    ended({
      repository: "octo/secret-project",
      pullNumber: 41,
      headSha: "a".repeat(40),
      conclusion: "neutral",
      result: null,
      cost: null,
      durationMs: 2500,
    });
    metrics.webhookDelivery("pull_request", "already_reviewed");
    metrics.watchQueue(() => ({ running: 2, pending: 5 }));
    const tools = observeToolCalls(
      {
        schemas: [],
        isToolName: (name): name is never => name !== "",
        parseArguments: () => ({ ok: true, args: {} }),
        execute: async (name) => {
          if (name === ("inspect_git_diff" as never)) throw new Error("store fault");
          return { result: { ok: false } as never, content: "{}", durationMs: 1 };
        },
      } as ToolRegistry,
      metrics,
    );
    await tools.execute("search_repository", {});
    await expect(tools.execute("inspect_git_diff", {})).rejects.toThrow("store fault");

    const url = await serve(
      createOpsRoutes({ readiness: () => ({ ready: true }), metrics, metricsToken: null }),
    );
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(sample(text, 'loupe_reviews_total{termination_reason="none",conclusion="neutral"}')).toBe("1");
    expect(sample(text, 'loupe_review_duration_seconds_bucket{le="5"}')).toBe("1");
    expect(sample(text, 'loupe_review_duration_seconds_bucket{le="1"}')).toBe("0");
    expect(
      sample(text, 'loupe_webhook_deliveries_total{event="pull_request",outcome="already_reviewed"}'),
    ).toBe("1");
    expect(sample(text, 'loupe_queue_jobs{state="running"}')).toBe("2");
    expect(sample(text, 'loupe_queue_jobs{state="waiting"}')).toBe("5");
    expect(sample(text, 'loupe_tool_calls_total{tool="search_repository",ok="false"}')).toBe("1");
    expect(sample(text, 'loupe_tool_calls_total{tool="inspect_git_diff",ok="false"}')).toBe("1");
    expect(text).toContain("nodejs_heap_size_used_bytes");
    expect(text).not.toContain("secret-project");
    expect(lines).toEqual([
      expect.objectContaining({
        event: "review_ended",
        repository: "octo/secret-project",
        pull_request: 41,
        termination_reason: "none",
        rounds: 0,
        tokens: 0,
        duration_ms: 2500,
      }),
    ]);
  });

  it("asks for the bearer token when METRICS_TOKEN is set", async () => {
    const url = await serve(
      createOpsRoutes({
        readiness: () => ({ ready: true }),
        metrics: createPrometheusMetrics(),
        metricsToken: "tok-123",
      }),
    );
    for (const authorization of [undefined, "Bearer tok-12", "Bearer tok-1234", "Basic tok-123", "tok-123"]) {
      const response = await fetch(`${url}/metrics`, authorization ? { headers: { authorization } } : {});
      expect(response.status).toBe(401);
      expect(await response.text()).toContain("METRICS_TOKEN");
    }
    const ok = await fetch(`${url}/metrics`, { headers: { authorization: "Bearer tok-123" } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("# TYPE loupe_reviews_total counter");
  });
});

describe("the App's readiness", () => {
  it("is starting, then the queue's answer, then shutting down for good", () => {
    const tracker = createReadinessTracker();
    expect(tracker.check()).toEqual({ ready: false, reason: "starting" });
    let queueOk = false;
    tracker.queueStarted(() => queueOk);
    expect(tracker.check()).toEqual({ ready: false, reason: "the review queue cannot take work" });
    queueOk = true;
    expect(tracker.check()).toEqual({ ready: true });
    tracker.shuttingDown();
    expect(tracker.check()).toEqual({ ready: false, reason: "shutting down" });
  });
});
