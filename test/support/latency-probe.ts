// Samples how fast a Loupe server answers /healthz and signed webhooks while a test makes it work,
// from a child process (latency-sampler.ts says how, and what is left out of each figure).
//
//   const probe = startLatencyProbe({ url: loupe.url, pid: loupe.pid, secret });
//   … the work …
//   const { healthz, webhooks, failures } = await probe.stop();
//   percentile(healthz, 99)

import { spawn } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "./loupe-process.ts";

export interface LatencySamples {
  /** Each answer's latency in ms, in the order sent. */
  healthz: number[];
  webhooks: number[];
  /** Answers that were not 2xx (or no answer). */
  failures: number;
}

export interface LatencyProbe {
  /** Ends the sampling; resolves with every sample taken. */
  stop(): Promise<LatencySamples>;
}

export function startLatencyProbe(target: { url: string; pid: number; secret: string }): LatencyProbe {
  const node = path.join(PROJECT_ROOT, "node_modules", ".bin", "node");
  const child = spawn(
    node,
    [path.join(import.meta.dirname, "latency-sampler.ts"), target.url, String(target.pid)],
    {
      env: { ...process.env, LOUPE_SAMPLER_SECRET: target.secret },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return {
    stop: async () => {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the latency sampler exited with ${code}: ${err}`);
      return JSON.parse(out) as LatencySamples;
    },
  };
}

/** The p-th percentile (nearest rank) of the samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error("no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
