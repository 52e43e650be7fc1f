// What `npm start` needs before it serves anything: where it listens, whether the App is registered
// yet (no credentials → the setup flow), and, when it is, the App's id and webhook secret. Probot
// would accept webhooks signed with the well-known secret "development" when WEBHOOK_SECRET is
// missing, so Loupe refuses to start instead, whatever NODE_ENV says; and a short secret is as
// guessable, since anyone who guesses it can sign webhooks that start reviews.

import * as v from "valibot";
import { type Env, shown, tokenVar } from "./env-fields.ts";

export const MIN_WEBHOOK_SECRET = 16;

export const ServerConfigSchema = v.pipe(
  v.object({
    // 0 takes any free port; 3000 is the default Probot uses for the App.
    PORT: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.check(
          (text) => /^[0-9]{1,5}$/.test(text) && Number(text) <= 65535,
          (issue) =>
            `PORT=${shown(issue.input)} is not a port number: set an integer from 0 to 65535 (0 for any free port), or unset PORT for 3000`,
        ),
        v.transform(Number),
      ),
      "3000",
    ),
    HOST: v.optional(v.pipe(v.string(), v.trim()), "localhost"),
    // The container image sets LOUPE_LISTEN_HOST=0.0.0.0 because `docker run --env-file` overrides
    // the image's own HOST, and an env file made from .env.example says HOST=localhost: the
    // server would listen on the container's loopback, unreachable through the published port.
    LOUPE_LISTEN_HOST: v.optional(v.pipe(v.string(), v.trim())),
  }),
  v.transform((env) => ({ port: env.PORT, host: env.LOUPE_LISTEN_HOST ?? env.HOST })),
);

export type ServerConfig = v.InferOutput<typeof ServerConfigSchema>;

/** Without an App id and a key, `npm start` serves the setup flow that registers the App. */
export function hasAppCredentials(env: Env): boolean {
  return [env.APP_ID, env.PRIVATE_KEY, env.PRIVATE_KEY_PATH].some((value) => (value ?? "").trim() !== "");
}

/** Any GitLab setting: Loupe runs for GitLab, with the GitHub App or without it. */
export function hasGitLabSettings(env: Env): boolean {
  return [env.GITLAB_URL, env.GITLAB_TOKEN, env.GITLAB_WEBHOOK_SECRET].some(
    (value) => (value ?? "").trim() !== "",
  );
}

const GITHUB_APP_NAMES = ["APP_ID", "PRIVATE_KEY", "PRIVATE_KEY_PATH", "WEBHOOK_SECRET"] as const;

const WEBHOOK_SECRET_FIX =
  "set it to the App's webhook secret (the setup flow writes it to .env; or generate one with " +
  "`openssl rand -hex 32` and enter the same value on the App's settings page)";

const GitHubAppIdentitySchema = v.pipe(
  v.object({
    APP_ID: v.pipe(
      v.optional(v.string(), ""),
      v.trim(),
      v.check(
        (id) => /^[0-9]+$/.test(id) && Number(id) > 0,
        "APP_ID must be the GitHub App's numeric id when PRIVATE_KEY or PRIVATE_KEY_PATH is set: copy it from the App's settings page",
      ),
      v.transform(Number),
    ),
    PRIVATE_KEY: v.optional(v.string()),
    PRIVATE_KEY_PATH: v.optional(v.string()),
    WEBHOOK_SECRET: v.pipe(
      v.optional(v.string(), ""),
      v.trim(),
      v.nonEmpty(`WEBHOOK_SECRET is required: ${WEBHOOK_SECRET_FIX}`),
      v.minLength(
        MIN_WEBHOOK_SECRET,
        `WEBHOOK_SECRET is shorter than ${MIN_WEBHOOK_SECRET} characters, so a sender could guess it and sign webhooks: ` +
          "generate a strong one with `openssl rand -hex 32` and enter the same value on the App's settings page",
      ),
    ),
  }),
  v.check(
    (env) => env.PRIVATE_KEY !== undefined || env.PRIVATE_KEY_PATH !== undefined,
    "PRIVATE_KEY or PRIVATE_KEY_PATH is required with APP_ID: generate a private key on the App's settings page",
  ),
  v.transform((env) => ({ appId: env.APP_ID, webhookSecret: env.WEBHOOK_SECRET })),
);

/**
 * The GitHub App's identity; null when none of its settings is set and GitLab is configured
 * (Loupe then serves GitLab alone). Any one of them set asks for all, each missing one named.
 */
export const AppIdentitySchema = v.pipe(
  v.record(v.string(), v.string()),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const env = dataset.value;
    const none = GITHUB_APP_NAMES.every((name) => (env[name] ?? "").trim() === "");
    if (none && hasGitLabSettings(env)) return null;
    // As the settings are read: a variable's first problem only (abortPipeEarly).
    const parsed = v.safeParse(GitHubAppIdentitySchema, env, { abortPipeEarly: true });
    if (parsed.success) return parsed.output;
    for (const issue of parsed.issues) addIssue({ message: issue.message });
    return NEVER;
  }),
);

/** METRICS_TOKEN: the bearer token GET /metrics asks for, or null when /metrics is open. */
export const MetricsTokenSchema = v.pipe(
  v.object({
    METRICS_TOKEN: tokenVar("METRICS_TOKEN", 200, "generate one with `openssl rand -hex 32`"),
  }),
  v.transform((env) => env.METRICS_TOKEN ?? null),
);
