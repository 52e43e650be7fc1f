// The queue dashboard's credentials (DASHBOARD_USER, DASHBOARD_PASSWORD). The dashboard shows every
// queued review's repository and pull request, so it never runs open: without a password there is
// no dashboard at all. The password's minimum length is what makes guessing it over HTTP hopeless
// (no lock-out needed); a user set without a password is taken for a forgotten password and refused.

import * as v from "valibot";
import { textVar } from "./env-fields.ts";

export const DEFAULT_DASHBOARD_USER = "loupe";
const MIN_PASSWORD = 16;
const MAX_LENGTH = 200;
// Printable ASCII without spaces; the user may not hold ':', which ends it in a Basic credential.
const PRINTABLE = /^[\x21-\x7e]+$/;

export const DashboardSchema = v.pipe(
  v.object({
    DASHBOARD_PASSWORD: textVar(
      (p) => p.length >= MIN_PASSWORD && p.length <= MAX_LENGTH && PRINTABLE.test(p),
      `DASHBOARD_PASSWORD must be ${MIN_PASSWORD} to ${MAX_LENGTH} printable characters without spaces: ` +
        "generate one with `openssl rand -hex 24`",
    ),
    DASHBOARD_USER: textVar(
      (user) => user.length <= MAX_LENGTH && PRINTABLE.test(user) && !user.includes(":"),
      `DASHBOARD_USER must be at most ${MAX_LENGTH} printable characters without spaces or ':': ` +
        `set a plain user name, or unset DASHBOARD_USER for ${DEFAULT_DASHBOARD_USER}`,
    ),
  }),
  v.check(
    (env) => env.DASHBOARD_PASSWORD !== undefined || env.DASHBOARD_USER === undefined,
    "DASHBOARD_USER is set without DASHBOARD_PASSWORD: set both to serve the queue dashboard, or neither",
  ),
  v.transform((env) =>
    env.DASHBOARD_PASSWORD === undefined
      ? null
      : { user: env.DASHBOARD_USER ?? DEFAULT_DASHBOARD_USER, password: env.DASHBOARD_PASSWORD },
  ),
);

/** The dashboard's credentials, or null when DASHBOARD_PASSWORD is unset (no dashboard). */
export type DashboardSettings = v.InferOutput<typeof DashboardSchema>;
export type DashboardCredentials = NonNullable<DashboardSettings>;
