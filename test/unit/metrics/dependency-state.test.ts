// A dependency's state as the log tells it, on a clock the test moves: one line when it goes down,
// one "still down" line per interval with the errors counted since, one line when it is back; every
// error counted by kind. Also the kinds of real errors, and the fleet's startup line.

import net from "node:net";
import { describe, expect, it } from "@jest/globals";
import { errorKind } from "../../../src/domain/error-kind.ts";
import { logFleetStart } from "../../../src/fleet/fleet-startup.ts";
import { createDependencyState } from "../../../src/metrics/dependency-state.ts";

function recorder() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const log = {
    info: (obj: object, msg: string) =>
      lines.push({ level: "info", obj: obj as Record<string, unknown>, msg }),
    warn: (obj: object, msg: string) =>
      lines.push({ level: "warn", obj: obj as Record<string, unknown>, msg }),
  };
  return { lines, log };
}

/** A real refused connection's error (nothing listens on the port once the server is closed). */
async function refusedError(): Promise<Error> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return new Promise((resolve) => net.connect(port, "127.0.0.1").on("error", resolve));
}

describe("a dependency's state", () => {
  it("logs down once, still down each interval with a count, then up", async () => {
    const { lines, log } = recorder();
    const counted: string[] = [];
    let now = 0;
    const state = createDependencyState({
      dependency: "redis",
      log,
      metrics: { dependencyError: (dependency, kind) => counted.push(`${dependency}/${kind}`) },
      stillDownEveryMs: 10_000,
      now: () => now,
    });
    const error = await refusedError();
    for (let i = 0; i < 100; i++) {
      state.failed(error);
      now += 250; // 4 errors a second for 25 s
    }
    state.succeeded();
    state.succeeded();
    expect(lines.map((line) => line.obj.event)).toEqual([
      "dependency_down",
      "dependency_still_down",
      "dependency_still_down",
      "dependency_up",
    ]);
    expect(lines[0]!.obj).toMatchObject({ dependency: "redis", kind: "connection_refused" });
    expect(lines[1]!.obj).toMatchObject({ errors: 40, errors_total: 41, down_ms: 10_000 });
    expect(lines[3]!.obj).toMatchObject({ errors_total: 100, down_ms: 25_000 });
    expect(counted).toHaveLength(100);
    expect(new Set(counted)).toEqual(new Set(["redis/connection_refused"]));
    expect(state.isDown()).toBe(false);
  });
});

describe("error kinds", () => {
  it("names socket codes, HTTP statuses and wrapped causes, and nothing else", async () => {
    expect(errorKind(await refusedError())).toBe("connection_refused");
    expect(errorKind(new Error("fetch failed", { cause: await refusedError() }))).toBe("connection_refused");
    expect(errorKind(Object.assign(new Error("x"), { status: 502 }))).toBe("server_error");
    expect(errorKind(Object.assign(new Error("x"), { status: 429 }))).toBe("rate_limited");
    expect(errorKind(Object.assign(new Error("x"), { status: 404 }))).toBe("client_error");
    expect(errorKind(new Error("anything a stranger wrote"))).toBe("other");
  });
});

describe("the fleet's startup line", () => {
  it("names the Redis host, the queues and the lock time, never the URL's credentials", () => {
    const { lines, log } = recorder();
    logFleetStart(log, "rediss://loupe:hunter2-pw@redis.internal:6380/2", 45_000);
    expect(JSON.stringify(lines)).not.toContain("hunter2");
    expect(lines[0]!.obj).toEqual({
      event: "fleet_started",
      redis: { host: "redis.internal:6380", db: 2, tls: true },
      queues: ["loupe-reviews", "loupe-replies"],
      lock_ms: 45_000,
    });
  });
});
