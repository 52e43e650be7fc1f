// The load generator of bench/app-load.ts's ack phase, in a process of its own: the benchmark
// process also runs the fake GitHub, the scripted model and the git servers, and timing answers
// from inside that busy event loop would count its own queueing as Loupe's latency. Bodies come
// pre-serialised and pre-signed, so the timed part is only the HTTP exchange.
//
// Bursts go one after the other over the same keep-alive connections, so a first burst can show
// the cold server (new connections, code not yet optimised) and a second one the warm server.
//
// stdin:  {"url": "...", "concurrency": 20, "bursts": [[{"event", "id", "body", "signature"}, ...], ...]}
// stdout: [{"latencies": [ms, ...], "statuses": {"200": n}, "elapsedMs": n}, ...] (one per burst)

import http from "node:http";
import { text } from "node:stream/consumers";

interface Delivery {
  readonly event: string;
  readonly id: string;
  readonly body: string;
  readonly signature: string;
}

const input = JSON.parse(await text(process.stdin)) as {
  url: string;
  concurrency: number;
  bursts: Delivery[][];
};
const target = new URL(input.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: input.concurrency });
interface BurstResult {
  readonly latencies: number[];
  readonly statuses: Record<string, number>;
  elapsedMs: number;
}

function send(delivery: Delivery, result: BurstResult): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(delivery.body),
          "User-Agent": "GitHub-Hookshot/loupe-bench",
          "X-GitHub-Event": delivery.event,
          "X-GitHub-Delivery": delivery.id,
          "X-Hub-Signature-256": delivery.signature,
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => {
          result.latencies.push(performance.now() - started);
          const status = String(response.statusCode ?? 0);
          result.statuses[status] = (result.statuses[status] ?? 0) + 1;
          resolve();
        });
      },
    );
    request.on("error", reject);
    request.end(delivery.body);
  });
}

async function sendBurst(deliveries: readonly Delivery[]): Promise<BurstResult> {
  const result: BurstResult = { latencies: [], statuses: {}, elapsedMs: 0 };
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: input.concurrency }, async () => {
      for (let i = next++; i < deliveries.length; i = next++) await send(deliveries[i]!, result);
    }),
  );
  result.elapsedMs = performance.now() - began;
  return result;
}

const results: BurstResult[] = [];
for (const burst of input.bursts) results.push(await sendBurst(burst));
agent.destroy();
process.stdout.write(`${JSON.stringify(results)}\n`);
