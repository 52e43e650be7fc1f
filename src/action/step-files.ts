// The files a step reports through: GITHUB_OUTPUT (outputs, each in GitHub's multiline-safe
// `name<<DELIMITER` form, the delimiter fresh per value and never inside it) and
// GITHUB_STEP_SUMMARY (Markdown appended to the job's summary page).

import { randomUUID } from "node:crypto";
import fs from "node:fs";

/** One output in the heredoc form the runner reads; `delimiter` must not occur in the value. */
export function outputEntry(name: string, value: string, delimiter: string): string {
  if (value.includes(delimiter) || name.includes(delimiter)) {
    throw new Error(`the output ${name} contains its delimiter`);
  }
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

export function writeOutputs(file: string | null, outputs: Readonly<Record<string, string>>): void {
  if (file === null) return;
  const text = Object.entries(outputs)
    .map(([name, value]) => outputEntry(name, value, `ghadelimiter_${randomUUID()}`))
    .join("");
  fs.appendFileSync(file, text, "utf8");
}

export function appendSummary(file: string | null, markdown: string): void {
  if (file === null) return;
  fs.appendFileSync(file, markdown.endsWith("\n") ? markdown : `${markdown}\n`, "utf8");
}
