// What `npm start` is asked to run, decided before anything listens: the setup flow (no App
// credentials yet), the App with its settings, or nothing, with every problem found: the schema's,
// then the checks that read the disk (the private key, the state directory).

import { privateKeyProblem } from "./app-credentials.ts";
import { type AppSettings, AppSettingsSchema } from "./app-settings.ts";
import type { Env } from "./env-fields.ts";
import { mergeEnvironment } from "./load-env.ts";
import { parseEnv } from "./read-env.ts";
import {
  hasAppCredentials,
  hasGitLabSettings,
  type ServerConfig,
  ServerConfigSchema,
} from "./server-config.ts";
import { stateDirProblem } from "./state-dir.ts";

export type Startup =
  | { readonly kind: "setup"; readonly server: ServerConfig }
  | { readonly kind: "app"; readonly settings: AppSettings }
  | { readonly kind: "invalid"; readonly errors: readonly string[] };

export function readStartup(raw: Env): Startup {
  const env = mergeEnvironment(raw, {});
  if (!hasAppCredentials(env) && !hasGitLabSettings(env)) {
    const server = parseEnv(ServerConfigSchema, env);
    return server.ok ? { kind: "setup", server: server.value } : { kind: "invalid", errors: server.errors };
  }
  const parsed = parseEnv(AppSettingsSchema, env);
  const hasKey = env.PRIVATE_KEY !== undefined || env.PRIVATE_KEY_PATH !== undefined;
  const errors = [
    ...(parsed.ok ? [] : parsed.errors),
    ...(hasKey ? [privateKeyProblem(env)] : []),
    ...(parsed.ok ? [stateDirCheck(parsed.value)] : []),
  ].filter((line): line is string => line !== null);
  if (!parsed.ok || errors.length > 0) return { kind: "invalid", errors };
  return { kind: "app", settings: parsed.value };
}

/** The journal is kept only by a single process (a fleet ignores LOUPE_STATE_DIR). */
function stateDirCheck(settings: AppSettings): string | null {
  const dir = settings.app.stateDir;
  return dir === null || settings.fleet.redisUrl !== null ? null : stateDirProblem(dir);
}
