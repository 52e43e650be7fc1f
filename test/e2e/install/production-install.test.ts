// The production install, as the Dockerfile does it but outside Docker (these machines have no
// Docker engine): the repository's tracked files copied to an empty directory, the Dockerfile's
// install command (`npm ci --omit=dev`, from the npm registry or its local cache), then both the
// README's `npm start` and the Dockerfile's CMD, configured with App credentials of a fake GitHub:
// /healthz must answer. Everything the server needs at run time must be a dependency. The copy
// goes to memory when the machine has room for it there (test/support/install-root.ts).

import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { installRoot } from "../../support/install-root.ts";
import { fakeWorldEnv, PROJECT_ROOT, startLoupeProcess } from "../../support/loupe-process.ts";

const run = promisify(execFile);
/** The production dependencies with the `node` package's binary (about 330 MB), with room to spare. */
const INSTALL_BYTES = 1024 ** 3;
const dockerfile = fs.readFileSync(path.join(PROJECT_ROOT, "Dockerfile"), "utf8");
let copy: string;
let github: FakeGitHub;

/** The Dockerfile's `RUN npm ci …` command (before any `&&`), as argv. */
function installCommand(): string[] {
  const line = /^RUN (npm ci [^&\n]*)/m.exec(dockerfile);
  if (line === null) throw new Error("the Dockerfile has no `RUN npm ci` line");
  return line[1]!.trim().split(/\s+/);
}

/** The Dockerfile's CMD (exec form). */
function startCommand(): string[] {
  const line = /^CMD (\[.*\])$/m.exec(dockerfile);
  if (line === null) throw new Error("the Dockerfile has no exec-form CMD");
  return JSON.parse(line[1]!) as string[];
}

beforeAll(async () => {
  copy = fs.mkdtempSync(path.join(installRoot(INSTALL_BYTES), "loupe-production-"));
  // The tracked files as they are in the working tree: what a fresh clone (or `docker build`) sees.
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: PROJECT_ROOT, encoding: "utf8" })
    .split("\0")
    .filter((file) => file !== "" && fs.existsSync(path.join(PROJECT_ROOT, file)));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    fs.copyFileSync(path.join(PROJECT_ROOT, file), path.join(copy, file));
  }
  const [npm, ...args] = installCommand();
  await run(npm!, args, {
    cwd: copy,
    // Reuse the local npm cache when it has the packages; the registry otherwise.
    env: { ...process.env, npm_config_prefer_offline: "true", npm_config_loglevel: "error" },
    maxBuffer: 16 * 1024 * 1024,
  });
  github = await startFakeGitHub();
}, 600_000);

afterAll(async () => {
  await github?.stop();
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

const env = () =>
  fakeWorldEnv({
    github,
    providerBaseURL: "http://127.0.0.1:9/v1",
    webhookSecret: `whsec-production-${process.pid}`,
    apiKey: "test-key-production",
  });

describe("the production install (npm ci --omit=dev) in a clean copy", () => {
  it("is what the Dockerfile does: a non-root user, and a HEALTHCHECK on /healthz", () => {
    expect(installCommand().slice(0, 3)).toEqual(["npm", "ci", "--omit=dev"]);
    expect(startCommand()).toEqual(["node_modules/.bin/node", "src/server.ts"]);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n?.*src\/healthcheck\.ts/m);
  });

  it("installed no development tool", () => {
    for (const tool of ["jest", "nock", "@biomejs/biome", "@swc/core", "@octokit/webhooks-examples"]) {
      expect(fs.existsSync(path.join(copy, "node_modules", tool))).toBe(false);
    }
    // Optional dependencies are the server's too: an install without them is for the CLI only.
    const { optionalDependencies } = JSON.parse(fs.readFileSync(path.join(copy, "package.json"), "utf8")) as {
      optionalDependencies: Record<string, string>;
    };
    for (const name of ["prom-client", ...Object.keys(optionalDependencies)]) {
      expect([name, fs.existsSync(path.join(copy, "node_modules", name))]).toEqual([name, true]);
    }
  });

  it.each([
    ["npm start", "npm"],
    ["the Dockerfile's CMD", "node"],
  ] as const)("starts with %s and answers /healthz, /readyz and /metrics", async (_, command) => {
    const loupe = await startLoupeProcess({ command, root: copy, env: env() });
    try {
      expect(await (await fetch(`${loupe.url}/healthz`)).text()).toBe("ok\n");
      expect((await fetch(`${loupe.url}/readyz`)).status).toBe(200);
      expect(await (await fetch(`${loupe.url}/metrics`)).text()).toContain("loupe_reviews_total");
    } finally {
      await loupe.stop();
    }
    expect(loupe.output()).not.toMatch(/Cannot find (module|package)/);
  });
});
