import { execFile } from "node:child_process";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "@jest/globals";
import { unlimitedGate } from "../../../src/jobs/memory-provider-gate.ts";
import { createOpenAiProvider } from "../../../src/llm/client.ts";
import type { ChatRequestBody } from "../../../src/llm/provider.ts";
import type { ProviderWait } from "../../../src/llm/provider-gate.ts";
import { stopTurn } from "../../support/chat-turns.ts";
import {
  type ScriptedProvider,
  type ScriptedTurn,
  startScriptedProvider,
} from "../../support/scripted-provider.ts";

const API_KEY = "sk-test-client-0123456789abcdef";
const body: ChatRequestBody = {
  model: "deepseek-v4-flash",
  messages: [{ role: "user", content: "hi" }],
  tools: [],
  tool_choice: "auto",
};

let server: ScriptedProvider | undefined;
/** host:port of the scripted server: the one provider detail a failure names. */
const host = () => new URL(server?.baseURL ?? "http://unset").host;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function run(
  script: ScriptedTurn[],
  options: { timeoutMs?: number; maxRetries?: number; signal?: AbortSignal } = {},
) {
  server = await startScriptedProvider(script);
  const provider = createOpenAiProvider({
    baseURL: server.baseURL,
    apiKey: API_KEY,
    model: "deepseek-v4-flash",
    maxResponseBytes: 2 * 1024 * 1024,
    toolCalls: "native",
    maxRetries: options.maxRetries ?? 2,
  });
  const timeoutMs = options.timeoutMs ?? 20_000;
  const started = Date.now();
  const outcome = await provider.complete(body, {
    signal: options.signal ?? new AbortController().signal,
    deadline: started + timeoutMs,
  });
  return { outcome, elapsed: Date.now() - started, timeoutMs, text: JSON.stringify(outcome) };
}

describe("openai provider client against a scripted HTTP server", () => {
  it("returns the body exactly as received, unknown fields included, and sends the body unchanged", async () => {
    const turn = stopTurn("x", { messageExtra: { reasoning_content: "r", vendor: { a: [1, { b: null }] } } });
    const { outcome } = await run([{ body: { ...turn, system_fingerprint: "fp", provider_extra: 7 } }]);
    expect(outcome).toEqual({
      kind: "response",
      body: { ...turn, system_fingerprint: "fp", provider_extra: 7 },
    });
    expect(server?.requests[0]?.bodyText).toBe(JSON.stringify(body));
    expect(server?.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it.each([
    [401, "provider_authentication_failed"],
    [403, "provider_authentication_failed"],
  ])("classifies %i as %s without retrying and without the body", async (status, reason) => {
    const { outcome, text } = await run([
      { status, body: { error: { message: `bad key ${API_KEY} SECRET-BODY`, type: "auth" } } },
    ]);
    expect(outcome).toEqual({ kind: "failure", host: host(), reason, status });
    expect(server?.requests).toHaveLength(1);
    expect(text).not.toContain("SECRET-BODY");
    expect(text).not.toContain(API_KEY);
  });

  it("keeps the numeric Retry-After of a 429 and stops when waiting would pass the deadline", async () => {
    const { outcome, elapsed, timeoutMs } = await run(
      [
        {
          status: 429,
          headers: { "retry-after": "30" },
          body: { error: { message: "slow down SECRET-BODY" } },
        },
      ],
      { timeoutMs: 2000 },
    );
    expect(outcome).toEqual({
      kind: "failure",
      host: host(),
      reason: "provider_rate_limited",
      status: 429,
      retryAfterSeconds: 30,
    });
    expect(server?.requests).toHaveLength(1);
    expect(elapsed).toBeLessThan(timeoutMs);
  });

  it("honours retry-after-ms and succeeds on the retry", async () => {
    const { outcome } = await run([
      { status: 429, headers: { "retry-after-ms": "20" }, rawBody: "" },
      { body: stopTurn("ok") },
    ]);
    expect(outcome.kind).toBe("response");
    expect(server?.requests).toHaveLength(2);
  });

  it("retries a 500 with an empty body, then reports provider_unavailable", async () => {
    const { outcome } = await run([{ fault: "empty_500" }, { fault: "empty_500" }], { maxRetries: 1 });
    expect(outcome).toEqual({ kind: "failure", host: host(), reason: "provider_unavailable", status: 500 });
    expect(server?.requests).toHaveLength(2);
  });

  it("reports a 502 HTML page as provider_unavailable without its text", async () => {
    const { outcome, text } = await run([{ fault: "html_502" }], { maxRetries: 0 });
    expect(outcome).toEqual({ kind: "failure", host: host(), reason: "provider_unavailable", status: 502 });
    expect(text).not.toContain("SECRET-UPSTREAM-DETAIL");
  });

  it("reports a connection reset as provider_unavailable after retrying", async () => {
    const { outcome } = await run([{ fault: "reset" }, { fault: "reset" }], { maxRetries: 1 });
    expect(outcome).toEqual({
      kind: "failure",
      host: host(),
      reason: "provider_unavailable",
      network: "connection_reset",
    });
    expect(server?.requests).toHaveLength(2);
  });

  it("recovers from one reset when a retry is left", async () => {
    const { outcome } = await run([{ fault: "reset" }, { body: stopTurn("ok") }], { maxRetries: 1 });
    expect(outcome.kind).toBe("response");
  });

  it("ends a hanging provider with review_timeout at the deadline", async () => {
    const { outcome, elapsed, timeoutMs } = await run([{ fault: "hang" }], { timeoutMs: 1500 });
    // How long Loupe waited is named for the operator (whole seconds of the attempt's share).
    expect(outcome).toMatchObject({ kind: "failure", host: host(), reason: "review_timeout" });
    expect(outcome).toHaveProperty("waitedSeconds", expect.any(Number));
    expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(elapsed).toBeLessThan(timeoutMs * 4);
  });

  it("ends a provider slower than the whole review with review_timeout", async () => {
    const { outcome, elapsed, timeoutMs } = await run([{ fault: "delay", ms: 60_000, next: { body: {} } }], {
      timeoutMs: 1500,
    });
    expect(outcome).toMatchObject({ kind: "failure", host: host(), reason: "review_timeout" });
    expect(elapsed).toBeLessThan(timeoutMs * 4);
  });

  it.each([
    ["streamed without a length", false],
    ["declared by Content-Length", true],
  ])("refuses a 3 MiB body %s with upstream_response_too_large", async (_label, declareLength) => {
    const { outcome } = await run([{ fault: "stream_bytes", bytes: 3 * 1024 * 1024, declareLength }]);
    expect(outcome).toEqual({ kind: "failure", host: host(), reason: "upstream_response_too_large" });
    expect(server?.requests).toHaveLength(1);
  });

  it("stops reading a huge body at the limit instead of buffering it whole", async () => {
    const { outcome } = await run([{ fault: "stream_bytes", bytes: 256 * 1024 * 1024 }]);
    expect(outcome).toEqual({ kind: "failure", host: host(), reason: "upstream_response_too_large" });
    // The connection was cut: the server never got to write the whole body.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server?.streams[0]?.completed).toBe(false);
    expect(server?.streams[0]?.sent ?? 0).toBeLessThan(256 * 1024 * 1024);
  });

  it("ends with cancelled when the review is aborted mid-request", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const { outcome, elapsed, timeoutMs } = await run([{ fault: "hang" }], { signal: controller.signal });
    expect(outcome).toEqual({ kind: "failure", host: host(), reason: "cancelled" });
    expect(elapsed).toBeLessThan(timeoutMs);
  });

  it("reports a 200 whose body is not JSON as invalid_model_response", async () => {
    const { outcome } = await run([{ rawBody: "<html>hello</html>" }]);
    // Only the kind of body is kept (a web page), never the body.
    expect(outcome).toEqual({
      kind: "failure",
      host: host(),
      reason: "invalid_model_response",
      status: 200,
      answer: "html",
    });
    const text = await run([{ rawBody: "hello" }]);
    expect(text.outcome).toMatchObject({ reason: "invalid_model_response", status: 200, answer: "not_json" });
  });
});

describe("provider failures name what to check", () => {
  it.each([400, 404, 422])("classifies %i as provider_request_rejected, without retrying", async (status) => {
    const { outcome, text } = await run([
      { status, body: { error: { message: "SECRET-BODY no such model" } } },
    ]);
    expect(outcome).toEqual({ kind: "failure", host: host(), reason: "provider_request_rejected", status });
    expect(server?.requests).toHaveLength(1);
    expect(text).not.toContain("SECRET-BODY");
  });

  async function unreachable(baseURL: string) {
    const provider = createOpenAiProvider({
      baseURL,
      apiKey: API_KEY,
      model: "m",
      maxResponseBytes: 1024,
      maxRetries: 0,
      toolCalls: "native",
    });
    return provider.complete(body, { signal: new AbortController().signal, deadline: Date.now() + 20_000 });
  }

  it("names a refused connection and its host", async () => {
    // A port that was free a moment ago and has nothing listening now.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    expect(await unreachable(`http://127.0.0.1:${port}/v1`)).toEqual({
      kind: "failure",
      reason: "provider_unavailable",
      host: `127.0.0.1:${port}`,
      network: "connection_refused",
    });
  });

  it("names a host that does not resolve", async () => {
    // .invalid never resolves (RFC 6761): the resolver answers at once, with no network reached.
    expect(await unreachable("http://provider.invalid/v1")).toEqual({
      kind: "failure",
      reason: "provider_unavailable",
      host: "provider.invalid",
      network: "dns",
    });
  });
});

describe("through a provider gate", () => {
  it("waits out a 429's Retry-After as the gate's back-off, says so, and uses up no retry", async () => {
    server = await startScriptedProvider([
      { status: 429, headers: { "retry-after": "1" }, body: { error: { message: "slow down" } } },
      { body: stopTurn("ok") },
    ]);
    const gate = unlimitedGate();
    const provider = createOpenAiProvider(
      {
        baseURL: server.baseURL,
        apiKey: API_KEY,
        model: "deepseek-v4-flash",
        maxResponseBytes: 2 * 1024 * 1024,
        toolCalls: "native",
        maxRetries: 0,
      },
      { gate },
    );
    const waits: ProviderWait[] = [];
    const outcome = await provider.complete(body, {
      signal: new AbortController().signal,
      deadline: Date.now() + 60_000,
      onWait: (wait) => waits.push(wait),
    });
    expect(outcome.kind).toBe("response");
    expect(waits).toEqual([{ cause: "back_off", seconds: 1 }]);
    const [limited, retried] = server.requests;
    expect(retried!.arrivedAt - limited!.arrivedAt).toBeGreaterThanOrEqual(1000);
  });

  it("reports the 429 when its Retry-After would pass the deadline, and the gate keeps the back-off", async () => {
    server = await startScriptedProvider([
      { status: 429, headers: { "retry-after": "30" }, body: { error: { message: "slow down" } } },
    ]);
    const gate = unlimitedGate();
    const provider = createOpenAiProvider(
      {
        baseURL: server.baseURL,
        apiKey: API_KEY,
        model: "deepseek-v4-flash",
        maxResponseBytes: 2 * 1024 * 1024,
        toolCalls: "native",
        maxRetries: 2,
      },
      { gate },
    );
    const outcome = await provider.complete(body, {
      signal: new AbortController().signal,
      deadline: Date.now() + 5_000,
    });
    expect(outcome).toMatchObject({
      kind: "failure",
      reason: "provider_rate_limited",
      retryAfterSeconds: 30,
    });
    expect(server.requests).toHaveLength(1);
    // Another request through the same gate is held back too, rather than sent into the 429.
    const next = await gate.acquire({
      tokens: 1,
      deadline: Date.now() + 200,
      signal: new AbortController().signal,
    });
    expect(next.kind).toBe("expired");
  });
});

describe("the SDK's loading", () => {
  // Every repository worker builds a provider as it starts; the SDK's 240-odd modules wait for the
  // first request. Judged in a fresh process, which records every openai module it loads.
  it("loads the SDK's client with the first request, not when the provider is built", async () => {
    server = await startScriptedProvider([{ body: stopTurn("x") }]);
    const client = pathToFileURL(path.resolve(import.meta.dirname, "../../../src/llm/client.ts")).href;
    const script = [
      'import { registerHooks } from "node:module";',
      "const loaded = new Set();",
      "registerHooks({ load(url, context, next) {",
      '  if (url.includes("/node_modules/openai/")) loaded.add(url.replace(/.*node_modules\\/openai\\//, ""));',
      "  return next(url, context);",
      "} });",
      `const { createOpenAiProvider } = await import(${JSON.stringify(client)});`,
      `const provider = createOpenAiProvider(${JSON.stringify({ baseURL: server.baseURL, apiKey: API_KEY, model: "m", maxResponseBytes: 1 << 20, maxRetries: 0, toolCalls: "native" })});`,
      "const built = [...loaded];",
      `const outcome = await provider.complete(${JSON.stringify(body)}, { signal: new AbortController().signal, deadline: Date.now() + 20000 });`,
      "process.stdout.write(JSON.stringify({ built, requested: [...loaded], kind: outcome.kind }));",
    ].join("\n");
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
    const { built, requested, kind } = JSON.parse(stdout) as {
      built: string[];
      requested: string[];
      kind: string;
    };
    expect(kind).toBe("response");
    // Built: only the SDK's error classes, which classifying a failure needs.
    expect(built.sort()).toEqual(["core/error.mjs", "error.mjs", "internal/errors.mjs"]);
    expect(requested).toContain("client.mjs");
  });
});
