// Every log line is bounded, whoever writes it: a field can carry text a stranger chose (a webhook
// payload an error drags along, a title, a URL, a provider's error body), and one failed delivery
// once wrote a 45 KB line with a pull request's whole body. Each line is parsed once on its way
// out, which also leaves one value per key (pino appends a child's `name` after its parent's, so a
// raw line said `"name"` three times; the innermost, last one wins as in JSON.parse), then every
// string is cut to MAX_STRING_CHARS, nesting, arrays and keys are cut, and the whole line's text
// shares one budget. Strings are redacted as the log hook redacts top-level ones.

import { Transform } from "node:stream";
import { redactSecrets } from "../domain/redact.ts";
import { cutCodePoints } from "../domain/text.ts";
import { redactCredentialParams } from "./credential-params.ts";

export const MAX_STRING_CHARS = 1_000;
/** All the strings of one line together (messages, errors, fields). */
export const MAX_LINE_TEXT_CHARS = 6_000;
const MAX_DEPTH = 4;
const MAX_ITEMS = 20;
const MAX_KEYS = 40;
const CUT_MARK = "…";

interface Budget {
  left: number;
}

function boundString(raw: string, budget: Budget): string {
  // Redacted here too: a serialized error's message or a nested field never met the log hook.
  const text = redactCredentialParams(redactSecrets(raw));
  const limit = Math.max(0, Math.min(MAX_STRING_CHARS, budget.left));
  const kept = text.length <= limit ? text : `${cutCodePoints(text, limit)}${CUT_MARK}`;
  budget.left -= kept.length;
  return kept;
}

function boundValue(value: unknown, depth: number, budget: Budget): unknown {
  if (typeof value === "string") return boundString(value, budget);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? "[array]" : "[object]";
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => boundValue(item, depth + 1, budget));
    if (value.length > MAX_ITEMS) items.push(`${CUT_MARK} ${value.length - MAX_ITEMS} more`);
    return items;
  }
  const entries = Object.entries(value);
  const fields: Record<string, unknown> = {};
  for (const [key, field] of entries.slice(0, MAX_KEYS)) fields[key] = boundValue(field, depth + 1, budget);
  if (entries.length > MAX_KEYS) fields[CUT_MARK] = `${entries.length - MAX_KEYS} more keys`;
  return fields;
}

/** One JSON log line (pino's, newline included or not), bounded, as one JSON line. */
export function boundLogLine(line: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    // Not pino's: still one bounded JSON line, so a JSON log stays parseable.
    parsed = { msg: line.trim() };
  }
  const bounded = boundValue(parsed, 0, { left: MAX_LINE_TEXT_CHARS });
  return `${JSON.stringify(bounded)}\n`;
}

/** pino's lines, each bounded and with one value per key, before Probot's format sees them. */
export function boundedLines(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = chunk
        .toString("utf8")
        .split("\n")
        .filter((line) => line.trim() !== "");
      done(null, lines.map(boundLogLine).join(""));
    },
  });
}
