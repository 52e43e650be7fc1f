// What `npm start` needs before it serves anything: whether the App is registered yet (no
// credentials → the setup flow), and, when it is, the webhook secret. Probot would accept webhooks
// signed with the well-known secret "development" when WEBHOOK_SECRET is missing, so Loupe refuses
// to start instead, whatever NODE_ENV says.

import { LoupeError } from "../domain/errors.ts";
import { checkPrivateKey } from "./app-credentials.ts";
import type { Env } from "./load-env.ts";

export type ServerMode =
  | { readonly kind: "setup" }
  | { readonly kind: "app"; readonly appId: number; readonly webhookSecret: string };

export function readServerMode(env: Env): ServerMode {
  const appId = env.APP_ID;
  const hasKey = env.PRIVATE_KEY !== undefined || env.PRIVATE_KEY_PATH !== undefined;
  if (appId === undefined && !hasKey) return { kind: "setup" };
  if (appId === undefined || !/^\s*\d+\s*$/.test(appId) || Number(appId) === 0) {
    throw new LoupeError(
      "configuration_invalid",
      "APP_ID must be the GitHub App's numeric id (its settings page shows it) when PRIVATE_KEY or PRIVATE_KEY_PATH is set",
    );
  }
  if (!hasKey) {
    throw new LoupeError(
      "configuration_invalid",
      "PRIVATE_KEY or PRIVATE_KEY_PATH is required with APP_ID: generate a private key on the App's settings page",
    );
  }
  checkPrivateKey(env);
  const webhookSecret = (env.WEBHOOK_SECRET ?? "").trim();
  if (webhookSecret === "") {
    throw new LoupeError(
      "configuration_invalid",
      "WEBHOOK_SECRET is required: set it to the App's webhook secret (the setup flow writes it to .env; " +
        "or generate one with `openssl rand -hex 32` and enter the same value on the App's settings page)",
    );
  }
  return { kind: "app", appId: Number(appId), webhookSecret };
}

/** METRICS_TOKEN: the bearer token GET /metrics asks for, or null when /metrics is open. */
export function readMetricsToken(env: Env): string | null {
  const token = env.METRICS_TOKEN?.trim();
  if (token === undefined || token === "") return null;
  if (token.length > 200 || !/^[\x21-\x7e]+$/.test(token)) {
    throw new LoupeError(
      "configuration_invalid",
      "METRICS_TOKEN must be at most 200 printable characters without spaces",
    );
  }
  return token;
}

/**
 * Where the server listens: LOUPE_LISTEN_HOST, else HOST, else localhost (Probot's default). The
 * container image sets LOUPE_LISTEN_HOST=0.0.0.0 because `docker run --env-file` overrides the
 * image's own HOST, and an env file made from .env.example says HOST=localhost: the server would
 * listen on the container's loopback, unreachable through the published port.
 */
export function readListenHost(env: Env): string {
  return env.LOUPE_LISTEN_HOST ?? env.HOST ?? "localhost";
}

/** PORT (default 3000, 0 for any free port): the same default Probot uses for the App. */
export function readPort(env: Env): number {
  const raw = env.PORT?.trim();
  if (raw === undefined) return 3000;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new LoupeError("configuration_invalid", "PORT must be a port number from 0 to 65535");
  }
  return Number(raw);
}
