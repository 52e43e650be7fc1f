// `loupe --help`, `--version` and each command's help, in process: what they print, that they
// never open a repository, and that the help cannot drift from the tools' schemas or from the
// options the commands parse.

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";
import { COMMAND_HELP, COMMAND_NAMES, MAIN_HELP, TOOL_HELP, VALUE_OPTIONS } from "../../../src/cli/help.ts";
import { main } from "../../../src/cli.ts";
import { TOOL_SCHEMAS } from "../../../src/tools/registry.ts";

const VERSION = (
  JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../../package.json"), "utf8")) as {
    version: string;
  }
).version;

async function loupe(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

describe("loupe --help and --version", () => {
  it.each([["--help"], ["-h"], ["help"]])("%s prints the overview", async (flag) => {
    expect(await loupe(flag)).toEqual({ code: 0, stdout: MAIN_HELP, stderr: "" });
    for (const command of COMMAND_NAMES) expect(MAIN_HELP).toContain(`  ${command} `);
  });

  it.each([["--version"], ["-V"], ["version"]])("%s prints the package version", async (flag) => {
    expect(await loupe(flag)).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });

  it.each(
    COMMAND_NAMES.flatMap((command) => [
      [command, ["--help"]],
      [command, ["-h"]],
      [command, ["--repo", "/nonexistent", "--help"]],
      [command, ["help-is-not-a-tool", "--help"]],
    ]) as [string, string[]][],
  )("loupe %s %j prints that command's help and opens nothing", async (command, rest) => {
    expect(await loupe(command, ...rest)).toEqual({
      code: 0,
      stdout: COMMAND_HELP[command as keyof typeof COMMAND_HELP],
      stderr: "",
    });
  });

  it("loupe help <command> prints the same help", async () => {
    for (const command of COMMAND_NAMES) {
      expect((await loupe("help", command)).stdout).toBe(COMMAND_HELP[command]);
    }
  });

  it("takes --help as an option's value for what it is (here: --args that are not JSON)", async () => {
    const result = await loupe(
      ...["tool", "search_repository", "--repo", ".", "--base", "a", "--head", "b", "--args", "--help"],
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--args is not valid JSON");
  });

  it("exits 2 with one line for no command or an unknown one", async () => {
    expect(await loupe()).toEqual({
      code: 2,
      stdout: "",
      stderr: "loupe: no command given (try loupe --help)\n",
    });
    expect(await loupe("reveiw")).toEqual({
      code: 2,
      stdout: "",
      stderr: 'loupe: unknown command "reveiw" (try loupe --help)\n',
    });
  });
});

describe("the help texts match the code", () => {
  it("list every tool and every argument of its schema", () => {
    for (const schema of TOOL_SCHEMAS) {
      const line = TOOL_HELP.split("\n").find((l) => l.startsWith(`  ${schema.function.name} `));
      expect(line).toBeDefined();
      const properties = Object.keys((schema.function.parameters as { properties: object }).properties);
      for (const property of properties) expect(line).toContain(`"${property}"`);
      expect(line!.match(/"([a-z_]+)"\??:/g)?.length).toBe(properties.length);
    }
  });

  it("list every option each command parses", () => {
    for (const command of COMMAND_NAMES) {
      for (const option of VALUE_OPTIONS[command]) expect(COMMAND_HELP[command]).toContain(`  ${option} <`);
    }
    expect(COMMAND_HELP.review).toContain("  --no-trace");
  });
});
