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

type Env = Readonly<Record<string, string | undefined>>;

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

/** LOG_FORMAT as Probot reads it: json or pretty, json by default in production. */
export function logFormat(env: Env): "json" | "pretty" {
  const format = env.LOG_FORMAT;
  if (format !== undefined && format !== "") return format === "pretty" ? "pretty" : "json";
  return env.NODE_ENV === "production" ? "json" : "pretty";
}

/** pino's options: Probot's level, name and message key, and the redaction above. */
export function logOptions(env: Env): LoggerOptions {
  return {
    level: env.LOG_LEVEL ?? "info",
    name: "probot",
    messageKey: env.LOG_MESSAGE_KEY ?? "msg",
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

export async function createLog(env: Env): Promise<Logger> {
  const transform = await getTransformStream({
    logFormat: logFormat(env),
    logLevelInString: env.LOG_LEVEL_IN_STRING === "true",
    sentryDsn: env.SENTRY_DSN,
  });
  // SonicBoom is a writable stream in all but its declared type.
  transform.pipe(pino.destination(1) as unknown as NodeJS.WritableStream);
  const bounded = boundedLines();
  bounded.pipe(transform);
  return pino(logOptions(env), bounded);
}
