// Everything the App's process reads from its environment: one schema composed of one schema per
// area, read once at start and passed down. Each area reads the whole environment and takes the
// variables it names, so every problem in every area is reported together. The areas are listed
// in the order an operator meets them in docs/install.md.

import * as v from "valibot";
import { AppConfigSchema } from "./app-config.ts";
import { DashboardSchema } from "./dashboard-config.ts";
import { FleetConfigSchema } from "./fleet-config.ts";
import { GitHubConfigSchema } from "./github-config.ts";
import { GitLabConfigSchema } from "./gitlab-config.ts";
import { LogConfigSchema } from "./log-config.ts";
import { ProviderConfigSchema } from "./provider-config.ts";
import { ProviderShareSchema } from "./provider-share-config.ts";
import { fanOut } from "./read-env.ts";
import { ReplyLimitsSchema } from "./reply-limits.ts";
import { ReviewLimitsSchema } from "./review-limits.ts";
import { AppIdentitySchema, MetricsTokenSchema, ServerConfigSchema } from "./server-config.ts";
import { SpendSchema } from "./spend-config.ts";
import { WorkerConfigSchema } from "./worker-config.ts";

const AREAS = {
  identity: AppIdentitySchema,
  server: ServerConfigSchema,
  log: LogConfigSchema,
  metricsToken: MetricsTokenSchema,
  dashboard: DashboardSchema,
  provider: ProviderConfigSchema,
  limits: ReviewLimitsSchema,
  app: AppConfigSchema,
  workers: WorkerConfigSchema,
  replyBudget: ReplyLimitsSchema,
  fleet: FleetConfigSchema,
  /** The fleet's share of the model provider: requests in flight and tokens a minute. */
  providerShare: ProviderShareSchema,
  /** How the App writes to GitHub's API (its write spacing). */
  github: GitHubConfigSchema,
  /** Prices, and the installations' spend caps. */
  budget: SpendSchema,
  /** GitLab merge requests, beside GitHub's pull requests (null: not configured). */
  gitlab: GitLabConfigSchema,
};

export const AppSettingsSchema = v.pipe(
  v.record(v.string(), v.string()),
  v.transform(fanOut(Object.keys(AREAS) as (keyof typeof AREAS)[])),
  v.object(AREAS),
  v.transform(({ identity, server, replyBudget, ...areas }) => ({
    ...areas,
    /** The GitHub App's id (APP_ID); null when Loupe serves GitLab alone. */
    appId: identity?.appId ?? null,
    webhookSecret: identity?.webhookSecret ?? null,
    port: server.port,
    host: server.host,
    /** A reply's budgets; the per-round, content and response bounds are the review's. */
    replyLimits: { ...areas.limits, ...replyBudget },
  })),
);

export type AppSettings = v.InferOutput<typeof AppSettingsSchema>;
