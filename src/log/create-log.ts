// The process's logger: Probot's format (pretty or JSON lines, the level in a string, Sentry; the
// same transform Probot's own logger writes through) plus redaction that holds for every line,
// whoever writes it. Credential headers are censored wherever a logged object carries them
// (request and response headers, an error's request), and every string logged — the message and
// the top-level fields — loses registered secrets, bearer/basic credentials and the values of
// credential-looking query parameters. Probot gets this logger instead of building its own.

import { getTransformStream } from "@probot/pino";
import { type Logger, type LoggerOptions, pino } from "pino";
import { redactSecrets } from "../domain/redact.ts";
import { boundedLines } from "./bounded-line.ts";
import { redactCredentialParams } from "./credential-params.ts";
import { serializeError } from "./error-fields.ts";
import { tookRoutedError } from "./routed-errors.ts";

/** pino's level names, and `silent`: LOG_LEVEL is one of them. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** How the process logs, read from LOG_LEVEL, LOG_FORMAT and Probot's other variables at start. */
export interface LogSettings {
  readonly level: (typeof LOG_LEVELS)[number];
  readonly format: "json" | "pretty";
  readonly messageKey: string;
  readonly levelInString: boolean;
  readonly sentryDsn: string | undefined;
}

const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie", "set-cookie"];

/** Headers objects at the top level, one level down (req.headers) and two (err.request.headers). */
export const REDACTED_PATHS: readonly string[] = CREDENTIAL_HEADERS.flatMap((name) =>
  ["", "*.", "*.*."].map((prefix) => `${prefix}headers["${name}"]`),
);

export function redactLogText(text: string): string {
  return redactCredentialParams(redactSecrets(text));
}

function redactArgument(value: unknown): unknown {
  if (typeof value === "string") return redactLogText(value);
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype)
    return value;
  const fields: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    fields[name] = typeof field === "string" ? redactLogText(field) : field;
  }
  return fields;
}

/**
 * pino's options: Probot's level, name and message key, and the redaction above. The name is
 * Probot's, "probot", where Probot runs; a process serving GitLab alone runs no Probot and says
 * "loupe".
 */
export function logOptions(
  settings: Pick<LogSettings, "level" | "messageKey">,
  name: "probot" | "loupe" = "probot",
): LoggerOptions {
  return {
    level: settings.level,
    name,
    messageKey: settings.messageKey,
    redact: { paths: [...REDACTED_PATHS], censor: "[REDACTED]" },
    serializers: { err: serializeError, error: serializeError },
    hooks: {
      logMethod(args, method) {
        if (tookRoutedError(args)) return;
        const redacted = (args as unknown[]).map(redactArgument);
        method.apply(this, redacted as Parameters<typeof method>);
      },
    },
  };
}

export async function createLog(settings: LogSettings, name: "probot" | "loupe" = "probot"): Promise<Logger> {
  const transform = await getTransformStream({
    logFormat: settings.format,
    logLevelInString: settings.levelInString,
    sentryDsn: settings.sentryDsn,
  });
  // SonicBoom is a writable stream in all but its declared type.
  transform.pipe(pino.destination(1) as unknown as NodeJS.WritableStream);
  const bounded = boundedLines();
  bounded.pipe(transform);
  return pino(logOptions(settings, name), bounded);
}
