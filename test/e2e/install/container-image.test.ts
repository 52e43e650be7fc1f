// The container image, checked without a Docker engine (none runs on these machines): the
// Dockerfile's lines are read, and its CMD and HEALTHCHECK run here with the environment the
// container would have: the image's ENV, overridden by `--env-file` made from .env.example (as
// Docker does), plus the App's credentials of a fake GitHub.

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEnv, promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeWorldEnv, PROJECT_ROOT, startLoupeProcess } from "../../support/loupe-process.ts";

const run = promisify(execFile);
const dockerfile = fs.readFileSync(path.join(PROJECT_ROOT, "Dockerfile"), "utf8");
/** The final stage: what the image is made of. */
const image = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
let github: FakeGitHub;

beforeAll(async () => {
  github = await startFakeGitHub();
});

afterAll(async () => {
  await github?.stop();
});

/** The final stage's ENV, continuation lines joined. */
function imageEnv(): Record<string, string> {
  const block = /^ENV ((?:.*\\\n)*.*)$/m.exec(image);
  if (block === null) throw new Error("the image sets no ENV");
  const pairs = block[1]!.replace(/\\\n/g, " ").trim().split(/\s+/);
  return Object.fromEntries(pairs.map((pair) => pair.split("=", 2) as [string, string]));
}

function execForm(instruction: string): string[] {
  const line = new RegExp(
    `^${instruction} (?:.*\\\\\\n)*\\s*CMD (\\[.*\\])$|^${instruction} (\\[.*\\])$`,
    "m",
  ).exec(image);
  if (line === null) throw new Error(`the image has no exec-form ${instruction}`);
  return JSON.parse(line[1] ?? line[2]!) as string[];
}

/** The address a published port reaches: the machine's first non-loopback IPv4 address. */
function outsideAddress(): string {
  const address = Object.values(os.networkInterfaces())
    .flat()
    .find((entry) => entry !== undefined && !entry.internal && entry.family === "IPv4");
  if (address === undefined) throw new Error("this machine has no non-loopback IPv4 interface");
  return address.address;
}

/** The HEALTHCHECK's command, run in the project as the image's WORKDIR holds it: its exit code. */
async function healthcheck(port: number): Promise<number> {
  const [file, ...args] = execForm("HEALTHCHECK");
  try {
    await run(path.join(PROJECT_ROOT, file!), args, {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", PORT: String(port) },
    });
    return 0;
  } catch (error) {
    return (error as { code: number }).code;
  }
}

const envFile = () =>
  Object.fromEntries(
    Object.entries(parseEnv(fs.readFileSync(path.join(PROJECT_ROOT, ".env.example"), "utf8"))).filter(
      ([, value]) => value !== "",
    ),
  ) as Record<string, string>;

const world = (extra: Record<string, string>) =>
  fakeWorldEnv({
    github,
    providerBaseURL: "http://127.0.0.1:9/v1",
    webhookSecret: `whsec-container-${process.pid}`,
    apiKey: "test-key-container",
    extra,
  });

describe("the container image", () => {
  it("carries one Node: the pinned one of the `node` package, on a base image without Node", () => {
    const stages = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((match) => match[1]);
    expect(stages.at(-1)).toBe("debian:bookworm-slim");
    expect(execForm("CMD")).toEqual(["node_modules/.bin/node", "src/server.ts"]);
    expect(execForm("HEALTHCHECK")[0]).toBe("node_modules/.bin/node");
    expect(image).toMatch(/^COPY --from=install \/app\/node_modules \.\/node_modules$/m);
    expect(image).toMatch(/^USER node$/m);
  });

  it("listens on every interface with --env-file .env.example (HOST=localhost), and is healthy", async () => {
    expect(envFile().HOST).toBe("localhost");
    const loupe = await startLoupeProcess({
      command: "node",
      env: world({ ...imageEnv(), ...envFile() }),
    });
    try {
      const outside = await fetch(`http://${outsideAddress()}:${loupe.port}/healthz`);
      expect(await outside.text()).toBe("ok\n");
      expect(await healthcheck(loupe.port)).toBe(0);
    } finally {
      await loupe.stop();
    }
  });

  it("is unhealthy when the server listens on the container's loopback only", async () => {
    const { LOUPE_LISTEN_HOST: _, ...withoutOverride } = imageEnv();
    const loupe = await startLoupeProcess({
      command: "node",
      env: world({ ...withoutOverride, HOST: "127.0.0.1" }),
    });
    try {
      expect((await fetch(`${loupe.url}/healthz`)).status).toBe(200);
      expect(await healthcheck(loupe.port)).toBe(1);
    } finally {
      await loupe.stop();
    }
  });
});
