// `loupe config check [FILE]`: validates a repository configuration (default .github/loupe.yml
// in the current directory) with the same parser and schema the App and `loupe review` use, with
// no provider and no repository. Exit 0 valid, 2 invalid with every error on its own line (a CI
// step or an editor can list them all), or bad usage.

import fs from "node:fs";
import { MAX_CONFIG_BYTES, parseRepoConfig, REPO_CONFIG_PATH } from "../config/repo-config.ts";
import { LoupeError } from "../domain/errors.ts";
import type { CliIo } from "./io.ts";

export async function runConfigCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const [action, file, ...extra] = argv;
  if (action !== "check") {
    const what = action === undefined ? "no action given" : `unknown action ${JSON.stringify(action)}`;
    throw new LoupeError("usage_invalid", `loupe config: ${what} (the one action is: check [FILE])`);
  }
  if (extra.length > 0 || file?.startsWith("-")) {
    throw new LoupeError(
      "usage_invalid",
      `loupe config check takes one FILE, not ${JSON.stringify(argv.slice(1).join(" "))}`,
    );
  }
  const text = readConfig(file ?? REPO_CONFIG_PATH, file === undefined);
  if (text === null) {
    io.stdout(`${REPO_CONFIG_PATH}: none here; the App would use the defaults\n`);
    return 0;
  }
  const shown = file ?? REPO_CONFIG_PATH;
  const result = parseRepoConfig(text);
  if (result.ok) {
    io.stdout(`${shown}: valid\n`);
    return 0;
  }
  const lines = result.errors.map(
    (error) =>
      `  ${error.path || "(root)"}: ${error.message.replace(/\s+/g, " ")}` +
      `${error.value === undefined ? "" : ` (found ${error.value.replace(/\s+/g, " ")})`}\n`,
  );
  io.stderr(
    `loupe: ${shown} is invalid (${result.errors.length} error${result.errors.length === 1 ? "" : "s"}):\n${lines.join("")}`,
  );
  return 2;
}

/** The file's text; null when the default file is absent (no configuration is a valid one). */
function readConfig(file: string, isDefault: boolean): string | null {
  try {
    // One byte past the limit is enough for the parser to say the file is too large.
    const fd = fs.openSync(file, "r");
    try {
      const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
      const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
      return buffer.subarray(0, read).toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && isDefault) return null;
    const why =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : `cannot be read (${code})`;
    throw new LoupeError("usage_invalid", `${file}: ${why}`);
  }
}
