import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";
import { loadEnvironment, mergeEnvironment } from "../../../src/config/load-env.ts";
import { MetricsTokenSchema } from "../../../src/config/server-config.ts";
import { readStartup } from "../../../src/config/startup.ts";
import { configError } from "../../support/config-error.ts";
import { settingsError, settingsOf } from "../../support/settings.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** The server mode `npm start` would run, or its error lines joined (to match one of them). */
function readServerMode(env: Env) {
  const startup = readStartup(env);
  if (startup.kind === "invalid") throw new Error(startup.errors.join("\n"));
  if (startup.kind === "setup") return { kind: "setup" };
  return { kind: "app", appId: startup.settings.appId, webhookSecret: startup.settings.webhookSecret };
}

function startupErrors(env: Env): readonly string[] {
  const startup = readStartup(env);
  if (startup.kind !== "invalid") throw new Error(`expected errors, got ${startup.kind}`);
  return startup.errors;
}

const readMetricsToken = (env: Env) => settingsOf(MetricsTokenSchema, env);

const PROJECT_ROOT = path.resolve(import.meta.dirname, "..", "..", "..");

describe("the environment", () => {
  it("treats empty values as unset and lets a non-empty process value win over .env", () => {
    const env = mergeEnvironment(
      { APP_ID: "7", PORT: "", HOST: "   ", ONLY_ENV: "x" },
      { APP_ID: "1", PORT: "4000", HOST: "0.0.0.0", EMPTY: "", ONLY_FILE: "y" },
    );
    expect(env).toEqual({ APP_ID: "7", PORT: "4000", HOST: "0.0.0.0", ONLY_ENV: "x", ONLY_FILE: "y" });
  });

  it("reads .env.example copied as it is: only its non-empty examples, and no credentials", () => {
    const env = loadEnvironment({}, path.join(PROJECT_ROOT, ".env.example"));
    expect(Object.values(env).every((value) => value.trim() !== "")).toBe(true);
    for (const name of ["APP_ID", "PRIVATE_KEY", "WEBHOOK_SECRET", "OPENAI_BASE_URL", "OPENAI_API_KEY"]) {
      expect(env[name]).toBeUndefined();
    }
    expect(readServerMode(env)).toEqual({ kind: "setup" });
    expect(readMetricsToken(env)).toBeNull();
  });

  it("reads no file when there is none, and says which file it could not read", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-env-"));
    try {
      expect(loadEnvironment({ A: "1" }, path.join(dir, ".env"))).toEqual({ A: "1" });
      fs.mkdirSync(path.join(dir, "dir.env"));
      expect(configError(() => loadEnvironment({}, path.join(dir, "dir.env")))).toContain("dir.env");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the server mode", () => {
  // GitHub hands out PKCS#1 PEM keys; a real one, so the start-up check parses it as the App would.
  const pem = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  const SECRET = "s3cret-of-24-characters";
  const provider = {
    OPENAI_BASE_URL: "https://api.example.test/v1",
    OPENAI_API_KEY: "sk-server-config-test",
    REVIEW_MODEL: "gpt-4.1-mini",
  };
  const app = { APP_ID: "12", PRIVATE_KEY: pem, WEBHOOK_SECRET: SECRET, ...provider };

  it("is the setup flow with no credentials, the App with them", () => {
    expect(readServerMode({})).toEqual({ kind: "setup" });
    expect(readServerMode(app)).toEqual({ kind: "app", appId: 12, webhookSecret: SECRET });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-key-"));
    try {
      const file = path.join(dir, "app.pem");
      fs.writeFileSync(file, pem);
      expect(
        readServerMode({ ...app, PRIVATE_KEY: undefined, PRIVATE_KEY_PATH: file } as never),
      ).toMatchObject({ kind: "app" });
      // The forms Probot accepts: escaped newlines (one-line env files) and base64.
      expect(readServerMode({ ...app, PRIVATE_KEY: pem.replace(/\n/g, "\\n") })).toMatchObject({
        kind: "app",
      });
      expect(readServerMode({ ...app, PRIVATE_KEY: Buffer.from(pem).toString("base64") })).toMatchObject({
        kind: "app",
      });
      fs.writeFileSync(file, "not a key\n");
      expect(startupErrors({ ...app, PRIVATE_KEY: undefined, PRIVATE_KEY_PATH: file })).toEqual([
        "PRIVATE_KEY_PATH names a file that is not an RSA private key in PEM form: download a private key from the App's settings page",
      ]);
      expect(
        startupErrors({ ...app, PRIVATE_KEY: undefined, PRIVATE_KEY_PATH: path.join(dir, "none") }),
      ).toEqual([
        "PRIVATE_KEY_PATH names no readable file: set the path of the .pem file downloaded from the App's settings page",
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ["no webhook secret", { ...app, WEBHOOK_SECRET: undefined }, "WEBHOOK_SECRET is required"],
    [
      "a malformed key",
      { ...app, PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----\nxyz" },
      "PRIVATE_KEY is not an RSA private key",
    ],
    ["an id of 0", { ...app, APP_ID: "0" }, "APP_ID must be"],
    ["a blank webhook secret", { ...app, WEBHOOK_SECRET: " " }, "WEBHOOK_SECRET is required"],
    ["a key without an id", { ...app, APP_ID: undefined }, "APP_ID must be"],
    ["a non-numeric id", { ...app, APP_ID: "loupe" }, "APP_ID must be"],
    [
      "an id without a key",
      { ...app, PRIVATE_KEY: undefined },
      "PRIVATE_KEY or PRIVATE_KEY_PATH is required",
    ],
  ])("refuses %s with one line saying what to set", (_, env, message) => {
    const errors = startupErrors(env);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
  });

  it("asks for the webhook secret whatever NODE_ENV is", () => {
    for (const NODE_ENV of ["production", "development", "test"]) {
      expect(startupErrors({ ...app, WEBHOOK_SECRET: undefined, NODE_ENV })[0]).toContain(
        "openssl rand -hex 32",
      );
    }
  });
});

describe("METRICS_TOKEN", () => {
  it("is optional, and refused when it has spaces or is too long", () => {
    expect(readMetricsToken({ METRICS_TOKEN: "abc.DEF-123" })).toBe("abc.DEF-123");
    expect(readMetricsToken({})).toBeNull();
    expect(settingsError(MetricsTokenSchema, { METRICS_TOKEN: "two words" })).toMatch(
      /^METRICS_TOKEN must be/,
    );
    expect(settingsError(MetricsTokenSchema, { METRICS_TOKEN: "x".repeat(201) })).toMatch(
      /^METRICS_TOKEN must be/,
    );
  });
});
