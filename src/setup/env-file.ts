// Writes the App's credentials into `.env`: each key replaces its line where the file has one
// (e.g. the empty `APP_ID=` of a copied .env.example), otherwise it is appended; every other line,
// comment and value is kept. Written to a temporary file then renamed, mode 0600 (a private key).

import fs from "node:fs";
import path from "node:path";

/**
 * Double-quoted with \n escapes: how `.env` parsers (node:util parseEnv) read a PEM on one line.
 * Those parsers have no escape for a quote or a backslash, so such a value is refused (GitHub's
 * ids, PEMs and hex secrets never contain one).
 */
export function envValue(value: string): string {
  if (/^[A-Za-z0-9_./:@+-]*$/.test(value)) return value;
  if (/["\\]/.test(value)) throw new Error("a .env value cannot hold a double quote or a backslash");
  return `"${value.replace(/\r?\n/g, "\\n")}"`;
}

export function mergeEnvText(text: string, values: Readonly<Record<string, string>>): string {
  const pending = new Map(Object.entries(values));
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const out = lines.map((line) => {
    const name = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
    if (name === undefined || !pending.has(name)) return line;
    const value = pending.get(name)!;
    pending.delete(name);
    return `${name}=${envValue(value)}`;
  });
  for (const [name, value] of pending) out.push(`${name}=${envValue(value)}`);
  return `${out.join("\n")}\n`;
}

export function writeEnvFile(file: string, values: Readonly<Record<string, string>>): void {
  let text = "";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const temporary = path.join(path.dirname(file), `.env.${process.pid}.tmp`);
  fs.writeFileSync(temporary, mergeEnvText(text, values), { mode: 0o600 });
  fs.renameSync(temporary, file);
}
