// The App's settings as one schema over the whole environment: the areas composed (a reply's
// budgets on the review's bounds, the workers on the review slots), each setting that used to
// fail late or quietly refused at start, and every problem of every area reported together, one
// line each, naming the variable and never a secret's value.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { AppSettingsSchema } from "../../../src/config/app-settings.ts";
import { CliSettingsSchema } from "../../../src/config/cli-settings.ts";
import { LogConfigSchema } from "../../../src/config/log-config.ts";
import { DEFAULT_REVIEW_LIMITS } from "../../../src/config/review-limits.ts";
import { ServerConfigSchema } from "../../../src/config/server-config.ts";
import { readStartup } from "../../../src/config/startup.ts";
import { settingsError, settingsErrors, settingsOf } from "../../support/settings.ts";

const SECRET = "0123456789abcdef0123"; // 20 characters
const KEY = "sk-app-settings-test-key";
const base = {
  APP_ID: "12",
  PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----",
  WEBHOOK_SECRET: SECRET,
  OPENAI_BASE_URL: "https://api.example.test/v1",
  OPENAI_API_KEY: KEY,
  REVIEW_MODEL: "gpt-4.1-mini",
};
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-settings-"));
  dirs.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the App's settings", () => {
  it("compose the areas, with the defaults in the schemas", () => {
    const settings = settingsOf(AppSettingsSchema, {
      ...base,
      REVIEW_CONCURRENCY: "3",
      REVIEW_MAX_RESPONSE_BYTES: "4096",
    });
    expect(settings).toMatchObject({
      appId: 12,
      webhookSecret: SECRET,
      port: 3000,
      host: "localhost",
      metricsToken: null,
      dashboard: null,
      fleet: { redisUrl: null, lockMs: 30_000 },
      github: { writeSpacingMs: 1000 },
      workers: { threads: 3, memoryMb: 512 },
      log: { level: "info", format: "pretty", messageKey: "msg", levelInString: false },
      provider: { model: "gpt-4.1-mini", maxResponseBytes: 4096, toolCalls: "auto", maxRetries: 2 },
    });
    expect(settings.limits).toEqual({ ...DEFAULT_REVIEW_LIMITS, maxResponseBytes: 4096 });
    expect(settings.replyLimits).toEqual({
      ...settings.limits,
      maxRounds: 4,
      maxToolCalls: 8,
      maxTokens: 100_000,
      timeoutMs: 120_000,
    });
  });

  it("treat an empty value as unset", () => {
    expect(settingsOf(AppSettingsSchema, { ...base, PORT: "", LOG_LEVEL: "  " })).toMatchObject({
      port: 3000,
      log: { level: "info" },
    });
  });

  it("list every problem of every area at once, one line each, secrets never shown", () => {
    const errors = settingsErrors(AppSettingsSchema, {
      ...base,
      WEBHOOK_SECRET: "tiny",
      PORT: "abc",
      LOG_LEVEL: "verbose",
      LOG_FORMAT: "xml",
      DASHBOARD_PASSWORD: "pw-Xq7",
      OPENAI_API_KEY: `${KEY} x`,
      REVIEW_MAX_ROUNDS: "0",
      REVIEW_CONCURRENCY: "99",
      REPLY_TIMEOUT_MS: "soon",
      REDIS_URL: "http://user:hunter2@redis",
    });
    expect(errors.map((line) => line.split(/[= ]/)[0])).toEqual([
      "WEBHOOK_SECRET",
      "PORT",
      "LOG_LEVEL",
      "LOG_FORMAT",
      "DASHBOARD_PASSWORD",
      "OPENAI_API_KEY",
      "REVIEW_MAX_ROUNDS",
      "REVIEW_CONCURRENCY", // read by the App's area and the workers', reported once
      "REPLY_TIMEOUT_MS",
      "REDIS_URL",
    ]);
    for (const line of errors) expect(line).toMatch(/^[A-Z_]+[= ][^\n]*: \S/);
    const text = errors.join("\n");
    for (const secret of ["tiny", "pw-Xq7", KEY, "hunter2"]) expect(text).not.toContain(secret);
  });
});

describe("settings that used to fail late or quietly", () => {
  it("PORT=abc is refused, not replaced by 3000", () => {
    expect(settingsError(ServerConfigSchema, { PORT: "abc" })).toBe(
      'PORT="abc" is not a port number: set an integer from 0 to 65535 (0 for any free port), or unset PORT for 3000',
    );
    expect(settingsError(ServerConfigSchema, { PORT: "65536" })).toContain("PORT=");
    expect(settingsOf(ServerConfigSchema, { PORT: " 0 " }).port).toBe(0);
  });

  it("LOG_FORMAT=xml is refused, not taken for json; a missing one follows NODE_ENV", () => {
    expect(settingsError(LogConfigSchema, { LOG_FORMAT: "xml" })).toBe(
      'LOG_FORMAT="xml" is not one of json, pretty: set one, or unset LOG_FORMAT for json in production, else pretty',
    );
    expect(settingsOf(LogConfigSchema, { NODE_ENV: "production" }).format).toBe("json");
    expect(settingsOf(LogConfigSchema, {}).format).toBe("pretty");
    expect(settingsOf(LogConfigSchema, { NODE_ENV: "production", LOG_FORMAT: "pretty" }).format).toBe(
      "pretty",
    );
  });

  it("LOG_LEVEL=verbose is refused naming LOG_LEVEL and the levels", () => {
    expect(settingsError(LogConfigSchema, { LOG_LEVEL: "verbose" })).toBe(
      'LOG_LEVEL="verbose" is not one of fatal, error, warn, info, debug, trace, silent: set one, or unset LOG_LEVEL for info',
    );
    expect(settingsOf(LogConfigSchema, { LOG_LEVEL: "debug" }).level).toBe("debug");
  });

  it("a WEBHOOK_SECRET under 16 characters is refused with how to make a strong one", () => {
    const line = settingsError(AppSettingsSchema, { ...base, WEBHOOK_SECRET: "x".repeat(15) });
    expect(line).toMatch(/^WEBHOOK_SECRET is shorter than 16 characters/);
    expect(line).toContain("openssl rand -hex 32");
    expect(
      settingsOf(AppSettingsSchema, { ...base, WEBHOOK_SECRET: "x".repeat(16) }).webhookSecret,
    ).toHaveLength(16);
    // What the setup flow writes: GitHub's generated secret, 40 hexadecimal characters.
    expect(settingsOf(AppSettingsSchema, { ...base, WEBHOOK_SECRET: "ab".repeat(20) }).webhookSecret).toBe(
      "ab".repeat(20),
    );
  });
});

describe("the state directory, checked at start", () => {
  // readStartup also checks the private key: the errors other than the key's are the state dir's.
  const stateErrors = (env: Record<string, string>) => {
    const startup = readStartup({ ...base, ...env });
    return startup.kind === "invalid" ? startup.errors.filter((line) => !line.startsWith("PRIVATE_KEY")) : [];
  };

  it("is created when missing, and the probe leaves nothing behind", () => {
    const dir = path.join(tempDir(), "a", "b");
    expect(stateErrors({ LOUPE_STATE_DIR: dir })).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("is refused when it cannot be created, naming it and the fix", () => {
    const file = path.join(tempDir(), "file");
    fs.writeFileSync(file, "");
    expect(stateErrors({ LOUPE_STATE_DIR: path.join(file, "state") })).toEqual([
      `LOUPE_STATE_DIR=${JSON.stringify(path.join(file, "state"))} cannot be created or written (ENOTDIR): ` +
        "create it and give Loupe's user write access to it, or unset LOUPE_STATE_DIR to keep no record",
    ]);
  });

  it("is refused at once where mkdir answers ENOENT in a parent that exists (/proc), or too deep", () => {
    expect(stateErrors({ LOUPE_STATE_DIR: "/proc/nope" })).toEqual([
      `LOUPE_STATE_DIR="/proc/nope" cannot be created or written (ENOENT): ` +
        "create it and give Loupe's user write access to it, or unset LOUPE_STATE_DIR to keep no record",
    ]);
    const deep = path.join(tempDir(), ...Array.from({ length: 40 }, (_, i) => `d${i}`));
    expect(stateErrors({ LOUPE_STATE_DIR: deep })).toEqual([expect.stringContaining("(ELOOP)")]);
  });

  it("is not checked with REDIS_URL, which ignores it", () => {
    const file = path.join(tempDir(), "file");
    fs.writeFileSync(file, "");
    expect(stateErrors({ LOUPE_STATE_DIR: path.join(file, "state"), REDIS_URL: "redis://r:6379" })).toEqual(
      [],
    );
  });
});

describe("loupe review's settings", () => {
  it("are the App's provider and limits, through the same schemas", () => {
    const { APP_ID: _, WEBHOOK_SECRET: __, PRIVATE_KEY: ___, ...provider } = base;
    expect(settingsOf(CliSettingsSchema, { ...provider, REVIEW_MAX_ROUNDS: "3" })).toMatchObject({
      provider: { baseURL: "https://api.example.test/v1", model: "gpt-4.1-mini" },
      limits: { maxRounds: 3 },
    });
    expect(
      settingsErrors(CliSettingsSchema, { ...provider, REVIEW_MODEL: "", REVIEW_MAX_ROUNDS: "x" }),
    ).toEqual([
      "REVIEW_MODEL is required: the model's name at OPENAI_BASE_URL, e.g. gpt-4.1-mini (OpenAI) or deepseek-v4-flash (DeepSeek)",
      'REVIEW_MAX_ROUNDS="x" is not an integer from 1 to 32: set one, or unset REVIEW_MAX_ROUNDS for 8',
    ]);
  });
});
