// The `loupe` command as a person installs it: `npm pack` of this repository, then
// `npm install -g --prefix <tmp> <tarball>` (and, as npx and projects do, a local install where
// npm hoists the `node` dependency next to Loupe, and `npm install -g .` from the checkout, which
// npm links), run from another directory with the machine's own `node` (Node 20 on these
// machines) first on PATH and no npm script environment at all. The installs go to memory when
// the machine has room for them there (test/support/install-root.ts).

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { installRoot } from "../../support/install-root.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;
const INSTALL_TIMEOUT_MS = 15 * 60_000;
/** Two installs of the tarball of about 330 MB each, the tarball and the link, with room to spare. */
const INSTALL_BYTES = 2 * 1024 ** 3;

/** PATH without any node_modules/.bin (npm scripts put the project's Node 24 first). */
const SYSTEM_PATH = (process.env.PATH ?? "/usr/bin:/bin")
  .split(path.delimiter)
  .filter((entry) => entry !== "" && !entry.includes("node_modules"))
  .join(path.delimiter);

/** The variables npm needs to reach its registry and cache here, and nothing from npm scripts. */
function baseEnv(pathValue: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: pathValue, HOME: process.env.HOME ?? os.homedir() };
  const keep =
    /^(?:NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|(?:HTTPS?|NO)_PROXY|npm_config_(?:cache|registry|userconfig))$/i;
  for (const [key, value] of Object.entries(process.env)) if (keep.test(key)) env[key] = value;
  return env;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(
  file: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}

async function npm(args: readonly string[], cwd: string): Promise<void> {
  const result = await run("npm", [...args, "--no-audit", "--no-fund", "--prefer-offline"], {
    cwd,
    env: baseEnv(SYSTEM_PATH),
  });
  if (result.code !== 0) throw new Error(`npm ${args.join(" ")} failed:\n${result.stderr.slice(-4000)}`);
}

let tmp: string;
let elsewhere: string;
let globalPrefix: string;
let linkedPrefix: string;
let project: string;
let repo: FixtureRepo;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(installRoot(INSTALL_BYTES), "loupe-install-"));
  elsewhere = fs.mkdtempSync(path.join(tmp, "elsewhere-"));
  globalPrefix = path.join(tmp, "prefix");
  linkedPrefix = path.join(tmp, "linked");
  project = path.join(tmp, "project");
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "package.json"), '{"name":"a-project","private":true}\n');
  await npm(["pack", "--pack-destination", tmp, "--silent"], ROOT);
  const tarball = path.join(tmp, `loupe-review-${VERSION}.tgz`);
  await Promise.all([
    npm(["install", "-g", "--prefix", globalPrefix, tarball], tmp),
    npm(["install", tarball], project),
  ]);
  await npm(["install", "-g", "--prefix", linkedPrefix, ROOT], tmp);
  repo = createRepo();
  repo.write("src/a.ts", "export const a = 1;\n");
  repo.commit("base");
  repo.branch("feature");
  repo.write("src/a.ts", "export const a = 2; // TODO\n");
  repo.commit("feature");
}, INSTALL_TIMEOUT_MS);

afterAll(() => {
  repo?.dispose();
  if (tmp !== undefined) fs.rmSync(tmp, { recursive: true, force: true });
});

function loupe(binDir: string, ...args: string[]): Promise<Run> {
  return run("loupe", args, { cwd: elsewhere, env: baseEnv(`${binDir}${path.delimiter}${SYSTEM_PATH}`) });
}

describe.each([
  ["npm install -g --prefix", () => path.join(globalPrefix, "bin")],
  [
    "a project's node_modules/.bin (node hoisted next to Loupe)",
    () => path.join(project, "node_modules", ".bin"),
  ],
  ["npm install -g . from the checkout (a link: its sources run)", () => path.join(linkedPrefix, "bin")],
])("loupe installed by %s", (_how, binDir) => {
  it("answers --version and --help for every command from another directory", async () => {
    expect(await loupe(binDir(), "--version")).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
    const help = await loupe(binDir(), "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("usage: loupe <command>");
    for (const command of ["tool", "review"]) {
      const commandHelp = await loupe(binDir(), command, "--help");
      expect(commandHelp).toMatchObject({ code: 0, stderr: "" });
      expect(commandHelp.stdout).toContain(`usage: loupe ${command} `);
    }
  });

  it("runs a tool against a repository in another directory", async () => {
    const result = await loupe(
      binDir(),
      ...["tool", "search_repository", "--repo", repo.dir, "--base", "main", "--head", "feature"],
      ...["--args", '{"query":"TODO"}'],
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: true,
      query: "TODO",
      path: "",
      matches: [{ path: "src/a.ts", line: 1, excerpt: "export const a = 2; // TODO" }],
      truncated: false,
    });
  });
});

describe("the installed package", () => {
  it("runs compiled JavaScript (Node strips no types under node_modules) and ships no sources", () => {
    const installed = path.join(globalPrefix, "lib", "node_modules", "loupe-review");
    expect(fs.existsSync(path.join(installed, "dist", "cli.js"))).toBe(true);
    expect(fs.existsSync(path.join(installed, "src"))).toBe(false);
    expect(fs.existsSync(path.join(ROOT, "dist"))).toBe(false); // npm pack cleans up after itself
  });

  it("is run by the Node 24 installed with it, not by the node first on PATH", async () => {
    const system = await run("node", ["--version"], { cwd: elsewhere, env: baseEnv(SYSTEM_PATH) });
    const systemMajor = Number(/^v(\d+)/.exec(system.stdout)?.[1]);
    // On these machines the system Node is 20: the command works although that Node cannot run it.
    const direct = await run(
      "node",
      [path.join(globalPrefix, "lib", "node_modules", "loupe-review", "bin", "loupe.js"), "--version"],
      { cwd: elsewhere, env: baseEnv(SYSTEM_PATH) },
    );
    if (systemMajor < 24) {
      expect(direct.code).toBe(2);
      expect(direct.stderr).toContain("loupe: needs Node.js 24.9 or later");
      expect(direct.stderr).toContain(system.stdout.trim());
    } else {
      expect(direct).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    }
    expect((await loupe(path.join(globalPrefix, "bin"), "--version")).code).toBe(0);
  });
});
