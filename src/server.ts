// `npm start`: Probot's run() (so with no credentials it starts the setup flow from app.yml), with
// the checks Probot skips: WEBHOOK_SECRET is required in production (Probot would silently use
// "development"), and SIGTERM drains the queue so every check run is completed.

import { run } from "probot";
import { readAppConfig } from "./config/app-config.ts";
import { LoupeError } from "./errors.ts";
import { loupeFromEnv } from "./index.ts";
import type { ReviewQueue } from "./jobs/queue.ts";
import { redactSecrets } from "./redact.ts";

async function main(): Promise<void> {
  const env = process.env;
  const production = env.NODE_ENV === "production";
  if (production && !(env.WEBHOOK_SECRET ?? "").trim()) {
    throw new LoupeError("configuration_invalid", "WEBHOOK_SECRET is required when NODE_ENV=production");
  }
  const config = readAppConfig(env);
  let queue: ReviewQueue | null = null;
  const configured = Boolean(env.APP_ID && (env.PRIVATE_KEY || env.PRIVATE_KEY_PATH));
  const server = await run(configured ? loupeFromEnv(env, (q) => (queue = q)) : () => {}, { env });
  process.once("SIGTERM", () => {
    const stopping = queue ? queue.shutdown(config.shutdownGraceMs) : Promise.resolve();
    void stopping.finally(() => server.stop().finally(() => process.exit(0)));
  });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`loupe: ${redactSecrets(message)}\n`);
  process.exit(1);
});
