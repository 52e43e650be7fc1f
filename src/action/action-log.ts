// The action's log: plain lines on stdout, which the runner shows in the job's log, and workflow
// commands (`::warning::`, `::error::`, `::notice::`) that also annotate the run. Every line goes
// through secret redaction first, as every log line of the App does.

import { redactSecrets } from "../domain/redact.ts";
import type { JobLogger } from "../log/job-logger.ts";

export type Write = (line: string) => void;

/** A workflow command's message, escaped as the runner reads it (one line). */
export function annotation(kind: "notice" | "warning" | "error", message: string): string {
  const escaped = redactSecrets(message).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  return `::${kind}::${escaped}`;
}

export function actionLogger(write: Write): JobLogger {
  const line = (obj: object, msg: string) => {
    const fields = Object.keys(obj).length === 0 ? "" : ` ${JSON.stringify(obj)}`;
    return redactSecrets(`loupe: ${msg}${fields}`);
  };
  return {
    info: (obj, msg) => write(line(obj, msg)),
    warn: (obj, msg) => write(line(obj, `warning: ${msg}`)),
  };
}
