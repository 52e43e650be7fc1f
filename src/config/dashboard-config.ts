// The queue dashboard's credentials (DASHBOARD_USER, DASHBOARD_PASSWORD). The dashboard shows every
// queued review's repository and pull request, so it never runs open: without a password there is
// no dashboard at all. The password's minimum length is what makes guessing it over HTTP hopeless
// (no lock-out needed); a user set without a password is taken for a forgotten password and refused.

import { LoupeError } from "../domain/errors.ts";
import type { Env } from "./load-env.ts";

export interface DashboardCredentials {
  readonly user: string;
  readonly password: string;
}

export const DEFAULT_DASHBOARD_USER = "loupe";
const MIN_PASSWORD = 16;
const MAX_LENGTH = 200;
// Printable ASCII without spaces; the user may not hold ':', which ends it in a Basic credential.
const PRINTABLE = /^[\x21-\x7e]+$/;

/** The dashboard's credentials, or null when DASHBOARD_PASSWORD is unset (no dashboard). */
export function readDashboardCredentials(env: Env): DashboardCredentials | null {
  const password = env.DASHBOARD_PASSWORD?.trim() ?? "";
  const rawUser = env.DASHBOARD_USER?.trim() ?? "";
  if (password === "") {
    if (rawUser !== "") {
      throw new LoupeError(
        "configuration_invalid",
        "DASHBOARD_USER is set without DASHBOARD_PASSWORD: set both to serve the queue dashboard, or neither",
      );
    }
    return null;
  }
  if (password.length < MIN_PASSWORD || password.length > MAX_LENGTH || !PRINTABLE.test(password)) {
    throw new LoupeError(
      "configuration_invalid",
      `DASHBOARD_PASSWORD must be ${MIN_PASSWORD} to ${MAX_LENGTH} printable characters without spaces ` +
        "(generate one with `openssl rand -hex 24`)",
    );
  }
  const user = rawUser === "" ? DEFAULT_DASHBOARD_USER : rawUser;
  if (user.length > MAX_LENGTH || !PRINTABLE.test(user) || user.includes(":")) {
    throw new LoupeError(
      "configuration_invalid",
      `DASHBOARD_USER must be at most ${MAX_LENGTH} printable characters without spaces or ':'`,
    );
  }
  return { user, password };
}
