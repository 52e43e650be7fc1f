// Latency of a server process while it works: /healthz and signed webhooks sampled from another
// process (latency-probe.ts) while a review runs, and after it until there are enough samples of
// each; a server is responsive when p99 of each kind stays under 100 ms and nothing failed.
// On a machine other work shares (CI's is), the same server idle is slower too: the bound is the
// promise plus twice the idle p99 sampled in the same run just before the work, so load moves the
// bound with it while a stall (the seconds a blocked event loop costs) still fails it.

import { expect } from "@jest/globals";
import { type LatencySamples, percentile, startLatencyProbe } from "./latency-probe.ts";
import type { LoupeProcess } from "./loupe-process.ts";

/** The documented promise: no answer of the server waits on repository work for this long. */
const MAX_P99_MS = 100;
/** Fewer than this many answers of each kind make a p99 that means little. */
const MIN_SAMPLES = 100;

/** Samples /healthz and webhooks while `work` runs, and after it until there are MIN_SAMPLES of each. */
/** How long the idle server is sampled before the work, for the run's baseline. */
const IDLE_SAMPLING_MS = 1_000;

export interface SampledLatency extends LatencySamples {
  /** The same server answering while idle, just before the work. */
  idle: LatencySamples;
}

export async function sampled<T>(
  loupe: LoupeProcess,
  secret: string,
  work: () => Promise<T>,
): Promise<[T, SampledLatency]> {
  const target = { url: loupe.url, pid: loupe.pid, secret };
  const idleProbe = startLatencyProbe(target);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLING_MS));
  const idle = await idleProbe.stop();
  const probe = startLatencyProbe(target);
  const result = await work().catch(async (error: unknown) => {
    await probe.stop().catch(() => undefined);
    throw error;
  });
  const samples = await probe.stop();
  while (samples.healthz.length < MIN_SAMPLES) {
    const more = startLatencyProbe(target);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = await more.stop();
    samples.healthz.push(...after.healthz);
    samples.webhooks.push(...after.webhooks);
    samples.failures += after.failures;
  }
  return [result, { ...samples, idle }];
}

export function expectResponsive(samples: SampledLatency, what: string): void {
  const p99 = { healthz: percentile(samples.healthz, 99), webhooks: percentile(samples.webhooks, 99) };
  const idle = {
    healthz: percentile(samples.idle.healthz, 99),
    webhooks: percentile(samples.idle.webhooks, 99),
  };
  // The figures, for the record; only p99 is asserted.
  const max = (values: readonly number[]) => Math.max(...values).toFixed(1);
  process.stdout.write(
    `${what}: ${samples.healthz.length} /healthz answers, p99 ${p99.healthz.toFixed(1)} ms ` +
      `(max ${max(samples.healthz)}); ${samples.webhooks.length} webhooks, p99 ${p99.webhooks.toFixed(1)} ms ` +
      `(max ${max(samples.webhooks)}); idle p99 ${idle.healthz.toFixed(1)} and ${idle.webhooks.toFixed(1)} ms\n`,
  );
  expect(samples.failures + samples.idle.failures).toBe(0);
  expect(p99.healthz).toBeLessThan(MAX_P99_MS + 2 * idle.healthz);
  expect(p99.webhooks).toBeLessThan(MAX_P99_MS + 2 * idle.webhooks);
}
