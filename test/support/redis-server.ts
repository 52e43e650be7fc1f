// A real `redis-server` (Debian's package) for the fleet tests and benchmarks: its own directory,
// 127.0.0.1 on a free port, the append-only file on (as the README asks of a production Redis), no
// RDB snapshots. `restart()` stops it and starts it again on the same port and data, as a Redis
// that restarts in the middle of reviews; `stop()` ends it and removes its directory.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./loupe-process.ts";
import { requireProgram } from "./programs.ts";
import { realClockEnv } from "./real-clock.ts";

export interface RedisServer {
  readonly port: number;
  /** redis://127.0.0.1:PORT */
  readonly url: string;
  /** Runs redis-cli against it and returns its output (e.g. `cli("INFO", "memory")`). */
  cli(...args: string[]): string;
  restart(): Promise<void>;
  /** Stops it without starting it again (Redis away); `start()` brings it back. */
  halt(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  // A missing program says how to get it, rather than spawn ENOENT.
  const redisServer = requireProgram("redis-server");
  const redisCli = requireProgram("redis-cli");
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-redis-"));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const cli = (...args: string[]) =>
    execFileSync(redisCli, ["-h", "127.0.0.1", "-p", String(port), ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: realClockEnv(),
    });

  const start = async () => {
    const spawned = spawn(
      redisServer,
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--save", ""],
      { stdio: "ignore", env: realClockEnv() },
    );
    child = spawned;
    for (let i = 0; ; i++) {
      try {
        if (cli("PING").trim() === "PONG") return;
      } catch {
        // not listening yet
      }
      if (spawned.exitCode !== null || i > 200) throw new Error("redis-server did not start");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const halt = async () => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM"); // redis flushes the append-only file and exits
    await exited;
  };
  await start();
  return {
    port,
    url,
    cli,
    start,
    halt,
    async restart() {
      await halt();
      await start();
    },
    async stop() {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
