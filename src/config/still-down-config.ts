// LOG_STILL_DOWN_SECONDS: while a dependency (Redis, GitHub) stays down, how often the log says so
// again, with the errors counted meanwhile. One line a minute by default: enough to see an outage
// is still on, few enough that it never floods the log. An invalid value stops Loupe, like every
// other setting.

import { LoupeError } from "../domain/errors.ts";

const DEFAULT_SECONDS = 60;
const MAX_SECONDS = 3_600;

export function readStillDownLogMs(env: Readonly<Record<string, string | undefined>>): number {
  const raw = (env.LOG_STILL_DOWN_SECONDS ?? "").trim();
  if (raw === "") return DEFAULT_SECONDS * 1000;
  const seconds = Number(raw);
  if (!/^\d+$/.test(raw) || seconds < 1 || seconds > MAX_SECONDS)
    throw new LoupeError(
      "configuration_invalid",
      `LOG_STILL_DOWN_SECONDS must be an integer from 1 to ${MAX_SECONDS}`,
    );
  return seconds * 1000;
}
