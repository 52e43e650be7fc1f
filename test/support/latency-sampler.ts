// Run as a child process by latency-probe.ts, next to a Loupe server under test:
//
//   node test/support/latency-sampler.ts <server url> <server pid>   (LOUPE_SAMPLER_SECRET in the env)
//
// Until its stdin ends, it asks the server for GET /healthz and delivers it a signed `ping`
// webhook, in turn and one at a time, then prints one JSON line with each answer's latency. A
// process of its own, so that nothing the test process does (the fake GitHub, git) delays it.
// Each latency is the wall-clock time less the time the server's main thread and this sampler's
// waited for a CPU meanwhile (their run-queue delay, /proc/<pid>/task/<tid>/schedstat): what is
// left is the server's own work and waiting, however many processes share the machine's cores —
// Where schedstat is missing, plain wall-clock time.

import fs from "node:fs";
import http from "node:http";
import { signWebhookBody } from "./webhook-delivery.ts";

const [url = "", pid = ""] = process.argv.slice(2);
const secret = process.env.LOUPE_SAMPLER_SECRET ?? "";
const PAUSE_MS = 10;
const agent = new http.Agent({ keepAlive: true });

function runQueueDelayMs(file: string): number {
  try {
    const ns = Number(fs.readFileSync(file, "utf8").trim().split(/\s+/)[1]);
    return Number.isFinite(ns) ? ns / 1e6 : 0;
  } catch {
    return 0;
  }
}

const waited = () =>
  runQueueDelayMs(`/proc/${pid}/task/${pid}/schedstat`) + runQueueDelayMs("/proc/thread-self/schedstat");

function request(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${url}${path}`, { method, headers, agent }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

function ping(): Promise<number> {
  const body = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
  return request(
    "POST",
    "/api/github/webhooks",
    {
      "content-type": "application/json",
      "x-github-event": "ping",
      "x-github-delivery": crypto.randomUUID(),
      "x-hub-signature-256": signWebhookBody(body, secret),
    },
    body,
  );
}

interface Samples {
  healthz: number[];
  webhooks: number[];
  failures: number;
}

async function measure(into: number[], samples: Samples, send: () => Promise<number>): Promise<void> {
  const start = performance.now();
  const before = waited();
  const status = await send().catch(() => 0);
  into.push(Math.max(0, performance.now() - start - (waited() - before)));
  if (status < 200 || status >= 300) samples.failures += 1;
}

let ending = false;
process.stdin.on("end", () => {
  ending = true;
});
process.stdin.resume();
const samples: Samples = { healthz: [], webhooks: [], failures: 0 };
while (!ending) {
  await measure(samples.healthz, samples, () => request("GET", "/healthz", {}, ""));
  await measure(samples.webhooks, samples, ping);
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
}
agent.destroy();
process.stdout.write(`${JSON.stringify(samples)}\n`);
