// GET /setup/callback: GitHub sends the browser back here with the one-time code after the App was
// created; Loupe trades it for the App's credentials and writes them to `.env`. It is the one
// request that changes what Loupe will run as, so it is refused once credentials exist (in the
// environment or in `.env`: nobody can swap the registered App for their own), while another
// exchange is under way, and unless the state is one this server gave this very browser (its
// cookie). The state is spent as the callback arrives: a failed exchange is started again from /.

import fs from "node:fs";
import type http from "node:http";
import { parseEnv } from "node:util";
import { redactSecrets } from "../domain/redact.ts";
import { writeEnvFile } from "./env-file.ts";
import { apiBaseUrl, convertManifestCode } from "./manifest-conversion.ts";
import { notSavedPage, problemPage, registeredPage } from "./setup-pages.ts";
import type { SetupStates, StateCheck } from "./setup-state.ts";

type Env = Readonly<Record<string, string | undefined>>;

export interface CallbackOptions {
  readonly env: Env;
  readonly envFile: string;
  readonly states: SetupStates;
  readonly fetch?: typeof fetch;
  readonly log?: (line: string) => void;
}

export interface PageAnswer {
  readonly status: number;
  readonly html: string;
}

const CREDENTIALS = ["APP_ID", "PRIVATE_KEY", "PRIVATE_KEY_PATH"];

/** Whether an App is configured: in the environment, or in `.env` (unreadable counts as yes). */
export function credentialsExist(env: Env, envFile: string): boolean {
  if (CREDENTIALS.some((name) => env[name]?.trim())) return true;
  let text: string;
  try {
    text = fs.readFileSync(envFile, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
  const values = parseEnv(text);
  return CREDENTIALS.some((name) => values[name]?.trim());
}

const REFUSED: Readonly<Record<Exclude<StateCheck, "ok">, string>> = {
  no_cookie:
    "This registration was not started in this browser (its setup cookie is missing): open this server's setup page in the browser you register with, and register again.",
  mismatch:
    "This link does not belong to the registration this browser started: open this server's setup page and register again.",
  unknown:
    "This link was used already, has expired, or was not issued by this server (did Loupe restart?): register again.",
};

const ALREADY_REGISTERED =
  "Loupe already has a GitHub App: its credentials are in the environment or .env, and this callback no longer accepts another App's. To register a new one, remove APP_ID, PRIVATE_KEY and WEBHOOK_SECRET from .env and restart Loupe.";

export function createCallback(options: CallbackOptions) {
  let exchanging = false;
  return async (req: http.IncomingMessage, url: URL): Promise<PageAnswer> => {
    if (credentialsExist(options.env, options.envFile)) {
      return { status: 409, html: problemPage("Registration closed", ALREADY_REGISTERED) };
    }
    if (exchanging) {
      return {
        status: 409,
        html: problemPage(
          "Registration under way",
          "Another registration is being finished: reload / in a moment.",
        ),
      };
    }
    const check = options.states.consume(req.headers.cookie, url.searchParams.get("state"));
    if (check !== "ok")
      return { status: 403, html: problemPage("Registration not finished", REFUSED[check]) };
    exchanging = true;
    try {
      return await exchange(options, url.searchParams.get("code") ?? "");
    } finally {
      exchanging = false;
    }
  };
}

async function exchange(options: CallbackOptions, code: string): Promise<PageAnswer> {
  let app: Awaited<ReturnType<typeof convertManifestCode>>;
  try {
    app = await convertManifestCode({
      apiBaseUrl: apiBaseUrl(options.env),
      code,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  } catch (error) {
    // The code is a credential until it is spent: never in a log line, even if a message held it.
    const raw = error instanceof Error ? error.message : String(error);
    const message = redactSecrets(code === "" ? raw : raw.replaceAll(code, "[REDACTED]"));
    options.log?.(`The GitHub App's registration was not finished: ${message}`);
    return { status: 502, html: problemPage("Registration not finished", message) };
  }
  try {
    writeEnvFile(options.envFile, {
      APP_ID: String(app.id),
      PRIVATE_KEY: app.pem,
      WEBHOOK_SECRET: app.webhook_secret,
    });
  } catch (error) {
    // The App exists on GitHub now and the code is spent: say how to finish by hand.
    const reason = redactSecrets(error instanceof Error ? error.message : String(error));
    options.log?.(
      `Registered the GitHub App ${app.name} (id ${app.id}), but ${options.envFile} could not be written: ${reason}`,
    );
    return { status: 500, html: notSavedPage(app, options.envFile, reason) };
  }
  options.log?.(
    `Registered the GitHub App ${app.name} (id ${app.id}); wrote its credentials to ${options.envFile}. Set the provider and restart.`,
  );
  return { status: 200, html: registeredPage(app, options.envFile) };
}
