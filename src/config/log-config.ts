// LOG_STILL_DOWN_SECONDS: while a dependency (Redis, GitHub, the model provider) stays down, how
// often the log says so again, with the errors counted meanwhile. One line a minute by default:
// enough to see an outage is still on, few enough that it never floods the log.

import { readPositiveInteger } from "./env-integer.ts";
import type { Env } from "./load-env.ts";

export function readStillDownLogMs(env: Env): number {
  return readPositiveInteger(env, "LOG_STILL_DOWN_SECONDS", 60, 3_600) * 1000;
}
