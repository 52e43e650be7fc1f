// The Probot app: reads the operator's configuration and registers Loupe's handlers, nothing else.

import type { ApplicationFunction } from "probot";
import { createLoupeApp } from "./app.ts";
import { readAppConfig } from "./config/app-config.ts";
import { readFleetConfig } from "./config/fleet-config.ts";
import { readProviderConfig } from "./config/provider-config.ts";
import { readReplyLimits } from "./config/reply-limits.ts";
import { readReviewLimits } from "./config/review-limits.ts";
import { createDefaultPorts } from "./jobs/default-ports.ts";
import type { ReplyQueue } from "./replies/reply-queue.ts";
import type { ReviewQueue } from "./jobs/review-queue.ts";
import type { Metrics } from "./metrics/metrics.ts";

export interface LoupeFromEnvOptions {
  readonly onQueue?: (queue: ReviewQueue) => void;
  readonly onReplyQueue?: (queue: ReplyQueue) => void;
  readonly metrics?: Metrics;
}

export function loupeFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  options: LoupeFromEnvOptions = {},
): ApplicationFunction {
  const config = readAppConfig(env);
  const fleet = readFleetConfig(env);
  const limits = readReviewLimits(env);
  const replyLimits = readReplyLimits(env, limits);
  const provider = readProviderConfig(env);
  const metrics = options.metrics;
  const ports = createDefaultPorts({
    provider,
    limits,
    replyLimits,
    ...(metrics ? { metrics } : {}),
  });
  const appId = env.APP_ID && /^\d+$/.test(env.APP_ID) ? Number(env.APP_ID) : null;
  return (app, appOptions) => {
    // Where the operator's key goes, said once at startup (the host only: a path may carry an id).
    app.log.info({ provider_host: new URL(provider.baseURL).host, model: provider.model }, "model provider");
    return createLoupeApp({
      config,
      ports,
      appId,
      ...(options.onQueue ? { onQueue: options.onQueue } : {}),
      ...(options.onReplyQueue ? { onReplyQueue: options.onReplyQueue } : {}),
      ...(metrics ? { metrics } : {}),
      redisUrl: fleet.redisUrl,
      fleetTiming: { lockMs: fleet.lockMs, stalledIntervalMs: fleet.lockMs / 2, leaseMs: 2 * fleet.lockMs },
    })(app, appOptions);
  };
}

const app: ApplicationFunction = (probot, options) => loupeFromEnv(process.env)(probot, options);
export default app;
