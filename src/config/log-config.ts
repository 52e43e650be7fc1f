// How the process logs: Probot's variables, read with Probot's defaults, but a level or a format
// Probot does not know is an error line instead of a silent JSON log or pino's nameless throw.

import * as v from "valibot";
import { LOG_LEVELS, type LogSettings } from "../log/create-log.ts";
import { choiceVar, optionalChoiceVar } from "./env-fields.ts";

export const LogConfigSchema = v.pipe(
  v.object({
    LOG_LEVEL: choiceVar("LOG_LEVEL", LOG_LEVELS, "info"),
    LOG_FORMAT: optionalChoiceVar("LOG_FORMAT", ["json", "pretty"], "json in production, else pretty"),
    NODE_ENV: v.optional(v.string()),
    LOG_MESSAGE_KEY: v.optional(v.pipe(v.string(), v.trim()), "msg"),
    LOG_LEVEL_IN_STRING: choiceVar("LOG_LEVEL_IN_STRING", ["true", "false"], "false"),
    SENTRY_DSN: v.optional(v.pipe(v.string(), v.trim())),
  }),
  v.transform(
    (env): LogSettings => ({
      level: env.LOG_LEVEL,
      // JSON lines in production, readable lines elsewhere: Probot's default.
      format: env.LOG_FORMAT ?? (env.NODE_ENV === "production" ? "json" : "pretty"),
      messageKey: env.LOG_MESSAGE_KEY,
      levelInString: env.LOG_LEVEL_IN_STRING === "true",
      sentryDsn: env.SENTRY_DSN,
    }),
  ),
);
