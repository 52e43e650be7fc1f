// The Probot app: reads the operator's configuration and registers Loupe's handlers, nothing else.

import type { ApplicationFunction } from "probot";
import { createLoupeApp } from "./app.ts";
import { readAppConfig } from "./config/app-config.ts";
import { readProviderConfig } from "./config/provider-config.ts";
import { readReviewLimits } from "./config/review-limits.ts";
import { createDefaultPorts } from "./jobs/default-ports.ts";
import type { ReviewQueue } from "./jobs/queue.ts";

export function loupeFromEnv(
  env: NodeJS.ProcessEnv,
  onQueue?: (queue: ReviewQueue) => void,
): ApplicationFunction {
  const config = readAppConfig(env);
  const limits = readReviewLimits(env);
  const ports = createDefaultPorts({ provider: readProviderConfig(env), limits, gitHost: config.gitHost });
  const appId = env.APP_ID && /^\d+$/.test(env.APP_ID) ? Number(env.APP_ID) : null;
  return createLoupeApp({ config, ports, appId, ...(onQueue ? { onQueue } : {}) });
}

const app: ApplicationFunction = (probot, options) => loupeFromEnv(process.env)(probot, options);
export default app;
