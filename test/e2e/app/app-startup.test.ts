// What `npm start` refuses and what it serves before any review: Loupe as a real process, with
// App credentials of a fake GitHub. No webhook secret → refused whatever NODE_ENV is; no model
// endpoint → refused naming OPENAI_BASE_URL; each setting that would otherwise fail later or
// quietly become something else → refused before anything listens, one line each, all of them at
// once; `.env.example` copied to `.env` as it is changes nothing; /healthz, /readyz and a
// token-protected /metrics answer; the single process loads nothing of the fleet's, the
// dashboard's or the webhook proxy's (bullmq, ioredis, bull-board, smee-client and its undici:
// together about a fifth of a start's CPU and 40 MB, bench/README.md).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import {
  fakeWorldEnv,
  PROJECT_ROOT,
  runLoupeToExit,
  startLoupeProcess,
} from "../../support/loupe-process.ts";

let github: FakeGitHub;
let dir: string;
const API_KEY = `test-key-startup-${process.pid}`;

const env = (extra: Record<string, string> = {}) =>
  fakeWorldEnv({
    github,
    providerBaseURL: "http://127.0.0.1:9/v1", // never called: no review runs here
    webhookSecret: `whsec-startup-${process.pid}-${Date.now()}`,
    apiKey: API_KEY,
    extra,
  });

const without = (record: Record<string, string>, ...names: string[]) =>
  Object.fromEntries(Object.entries(record).filter(([name]) => !names.includes(name)));

beforeAll(async () => {
  github = await startFakeGitHub();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-startup-"));
  fs.copyFileSync(path.join(PROJECT_ROOT, ".env.example"), path.join(dir, ".env"));
});

afterAll(async () => {
  await github?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm start with App credentials", () => {
  it.each(["production", "development", ""])(
    "refuses to start without WEBHOOK_SECRET (NODE_ENV=%j) and says how to set it",
    async (nodeEnv) => {
      const base = without(env(), "WEBHOOK_SECRET", "NODE_ENV");
      const result = await runLoupeToExit({
        command: "node",
        env: nodeEnv === "" ? base : { ...base, NODE_ENV: nodeEnv },
      });
      expect(result.code).toBe(1);
      expect(result.output).toContain("loupe: WEBHOOK_SECRET is required");
      expect(result.output).toContain("openssl rand -hex 32");
    },
  );

  it("refuses to start without OPENAI_BASE_URL, naming it: the key goes nowhere by default", async () => {
    const result = await runLoupeToExit({ command: "node", env: without(env(), "OPENAI_BASE_URL") });
    expect(result.code).toBe(1);
    expect(result.output).toContain("loupe: OPENAI_BASE_URL is required");
    expect(result.output).not.toContain(API_KEY);
  });

  it("refuses a key without an App id, naming APP_ID", async () => {
    const result = await runLoupeToExit({ command: "node", env: without(env(), "APP_ID") });
    expect(result.code).toBe(1);
    expect(result.output).toContain("loupe: APP_ID must be the GitHub App's numeric id");
  });

  it.each([
    [{ PORT: "abc" }, 'loupe: PORT="abc" is not a port number: set an integer from 0 to 65535'],
    [{ LOG_FORMAT: "xml" }, 'loupe: LOG_FORMAT="xml" is not one of json, pretty: set one'],
    [{ LOG_LEVEL: "verbose" }, 'loupe: LOG_LEVEL="verbose" is not one of fatal, error, warn, info, debug'],
    [
      { OPENAI_BASE_URL: "http://127.0.0.1:9/v1/chat/completions" },
      "loupe: OPENAI_BASE_URL ends with the request path: drop /chat/completions",
    ],
    [{ REVIEW_MODEL: "" }, "loupe: REVIEW_MODEL is required: the model's name at OPENAI_BASE_URL"],
    [{ WEBHOOK_SECRET: "short-secret" }, "loupe: WEBHOOK_SECRET is shorter than 16 characters"],
  ])("refuses %j before it listens, naming the variable and the fix", async (extra, line) => {
    const result = await runLoupeToExit({ command: "node", env: env(extra) });
    expect(result.code).toBe(1);
    expect(result.output).toContain(line);
    expect(result.output).not.toContain("Listening");
    expect(result.output).not.toContain(API_KEY);
  });

  it("refuses a state directory it cannot create at start, not at the first check run", async () => {
    const file = path.join(dir, "a-file");
    fs.writeFileSync(file, "");
    const result = await runLoupeToExit({
      command: "node",
      env: env({ LOUPE_STATE_DIR: path.join(file, "state") }),
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`loupe: LOUPE_STATE_DIR=${JSON.stringify(path.join(file, "state"))}`);
    expect(result.output).toContain("cannot be created or written (ENOTDIR)");
  });

  it("lists every problem at once, one line each, and never a secret's value", async () => {
    const secret = "weak-secret";
    const result = await runLoupeToExit({
      command: "node",
      env: env({ PORT: "abc", LOG_LEVEL: "verbose", REVIEW_MAX_ROUNDS: "0", WEBHOOK_SECRET: secret }),
    });
    expect(result.code).toBe(1);
    const lines = result.output.trim().split("\n");
    expect(lines.map((line) => line.split(/[= ]/)[1]).sort()).toEqual(
      ["LOG_LEVEL", "PORT", "REVIEW_MAX_ROUNDS", "WEBHOOK_SECRET"].sort(),
    );
    // Each: the variable, what is wrong, then after a colon what to do.
    for (const line of lines) expect(line).toMatch(/^loupe: [A-Z_]+[= ][^:]+: \S/);
    expect(result.output).not.toContain(secret);
  });

  it("refuses PORT=abc in the setup flow too (no App credentials yet)", async () => {
    const setup = without(env({ PORT: "abc" }), "APP_ID", "PRIVATE_KEY", "WEBHOOK_SECRET");
    const result = await runLoupeToExit({ command: "node", cwd: dir, env: setup });
    expect(result.code).toBe(1);
    expect(result.output).toContain('loupe: PORT="abc" is not a port number');
  });

  it("starts with .env.example copied to .env as it is, and serves the operator's endpoints", async () => {
    const token = `metrics-token-${process.pid}`;
    const stateDir = path.join(dir, "state", "nested");
    const packagesFile = path.join(dir, "loaded-packages.txt");
    const loupe = await startLoupeProcess({
      command: "node",
      cwd: dir,
      env: env({
        METRICS_TOKEN: token,
        REVIEW_MODEL: "gpt-4.1-mini",
        LOUPE_STATE_DIR: stateDir,
        NODE_OPTIONS: `--import=${pathToFileURL(path.join(PROJECT_ROOT, "test", "support", "record-packages.mjs"))}`,
        LOADED_PACKAGES_FILE: packagesFile,
      }),
    });
    try {
      expect(fs.readdirSync(stateDir)).toEqual([]); // created and written at start, the probe removed
      expect(await (await fetch(`${loupe.url}/healthz`)).text()).toBe("ok\n");
      expect((await fetch(`${loupe.url}/readyz`)).status).toBe(200);
      const refused = await fetch(`${loupe.url}/metrics`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const wrong = await fetch(`${loupe.url}/metrics`, { headers: { authorization: "Bearer nope" } });
      expect(wrong.status).toBe(401);
      const metrics = await fetch(`${loupe.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get("content-type")).toContain("text/plain");
      expect(await metrics.text()).toContain('loupe_queue_jobs{state="waiting"} 0');
      // The startup log names where the key goes and which model, never the key.
      const provider = loupe
        .output()
        .split("\n")
        .find((line) => line.includes('"model provider"'));
      expect(JSON.parse(provider!)).toMatchObject({ provider_host: "127.0.0.1:9", model: "gpt-4.1-mini" });
      // Its first line says which Loupe this is, the version loupe_build_info gives.
      const { version } = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8"));
      const first = JSON.parse(loupe.output().split("\n")[0]!);
      expect(first).toMatchObject({ msg: `Loupe ${version} starting`, version });
      expect(loupe.output()).not.toContain(API_KEY);
      // What it loaded: the App's own (the recorder works), none of what only a fleet, a dashboard or a proxy needs.
      const loaded = fs.readFileSync(packagesFile, "utf8").split("\n");
      expect(loaded).toEqual(expect.arrayContaining(["probot", "prom-client"]));
      const notForTheSingleProcess = [
        "bullmq",
        "ioredis",
        "@bull-board/api",
        "@bull-board/express",
        "smee-client",
        "undici",
      ];
      expect(loaded.filter((name) => notForTheSingleProcess.includes(name))).toEqual([]);
    } finally {
      await loupe.stop();
    }
  });
});
