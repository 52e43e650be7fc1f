// `loupe config check [--org FILE] [FILE]`: validates a repository configuration (default
// .github/loupe.yml in the current directory), with the organisation's file when given, with the
// same parser, schema and merge the App and `loupe review` use, with no provider and no repository.
// Exit 0 valid, 2 invalid with every error on its own line (a CI step or an editor can list them
// all), or bad usage. `loupe config show [--org FILE] [--repo FILE] PATH`: the settings a changed
// file PATH takes, each value with the layer that set it.

import fs from "node:fs";
import { parseArgs } from "node:util";
import type { ConfigFile } from "../config/config-file-read.ts";
import { MAX_CONFIG_BYTES, REPO_CONFIG_PATH } from "../config/repo-config.ts";
import { mergeSettingsLayers } from "../config/settings-layers.ts";
import { LoupeError } from "../domain/errors.ts";
import type { CliIo } from "./io.ts";
import { describeSettings } from "./settings-view.ts";

const ACTIONS = "check [--org FILE] [FILE], show [--org FILE] [--repo FILE] PATH";

export async function runConfigCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const [action, ...rest] = argv;
  if (action !== "check" && action !== "show") {
    const what = action === undefined ? "no action given" : `unknown action ${JSON.stringify(action)}`;
    throw new LoupeError("usage_invalid", `loupe config: ${what} (the actions are: ${ACTIONS})`);
  }
  const parsed = parseOptions(action, rest);
  const [positional, ...extra] = parsed.positionals;
  if (extra.length > 0 || (action === "show" && positional === undefined)) {
    const wants = action === "check" ? "one FILE" : "one PATH";
    throw new LoupeError(
      "usage_invalid",
      `loupe config ${action} takes ${wants}, not ${JSON.stringify(rest.join(" "))}`,
    );
  }
  const repoFile = action === "check" ? positional : parsed.values.repo;
  const repository = readLayer(repoFile ?? REPO_CONFIG_PATH, repoFile === undefined);
  const organisation = parsed.values.org === undefined ? null : readLayer(parsed.values.org, false);
  const shown = repoFile ?? REPO_CONFIG_PATH;
  const merged = mergeSettingsLayers({
    operator: { source: "the operator's settings (not read here)", keys: [] },
    organisation,
    repository,
  });
  if (!merged.ok) {
    const files = [...new Set(merged.errors.map((e) => e.file))].join(" and ");
    const lines = merged.errors.map(
      (error) =>
        `  ${organisation === null ? "" : `${error.file}: `}${error.path || "(root)"}: ${error.message.replace(/\s+/g, " ")}` +
        `${error.value === undefined ? "" : ` (found ${error.value.replace(/\s+/g, " ")})`}\n`,
    );
    const count = `${merged.errors.length} error${merged.errors.length === 1 ? "" : "s"}`;
    io.stderr(
      `loupe: ${files} ${files.includes(" and ") ? "are" : "is"} invalid (${count}):\n${lines.join("")}`,
    );
    return 2;
  }
  if (action === "show") {
    io.stdout(describeSettings(merged.config, merged.applied, positional!));
    return 0;
  }
  if (repository.file.kind === "missing" && organisation === null) {
    io.stdout(`${REPO_CONFIG_PATH}: none here; the App would use the defaults\n`);
    return 0;
  }
  const valid = [
    ...(organisation === null ? [] : [parsed.values.org]),
    ...(repository.file.kind === "missing" ? [] : [shown]),
  ];
  io.stdout(`${valid.join(" and ")}: valid${valid.length > 1 ? " together" : ""}\n`);
  return 0;
}

function parseOptions(action: string, args: readonly string[]) {
  try {
    return parseArgs({
      args: [...args],
      options: { org: { type: "string" }, repo: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new LoupeError("usage_invalid", `loupe config ${action}: ${(error as Error).message}`);
  }
}

/** A layer's file as the merge takes it; the default file absent is no file (the defaults). */
function readLayer(file: string, isDefault: boolean): ConfigFile {
  const text = readConfig(file, isDefault);
  return { file: text === null ? { kind: "missing" } : { kind: "found", text }, source: file };
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
