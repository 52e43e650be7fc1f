// A real `redis-server` (Debian's package) for the fleet tests and benchmarks: its own directory,
// 127.0.0.1 on a free port, the append-only file on (as the README asks of a production Redis), no
// RDB snapshots. `restart()` stops it and starts it again on the same port and data, as a Redis
// that restarts in the middle of reviews; `stop()` ends it and removes its directory.
//
// Its port lies below the system's ephemeral range. While a test holds Redis away, its port is
// free, and a port of the ephemeral range could be taken meanwhile: by another test's server
// listening on port 0, or as the local port of any outgoing connection (the tests run four files
// at once, each with servers and clients). Redis could then not listen again ("redis-server did
// not start", seen once in a full check). Below the range, only an explicit bind takes a port.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
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

/** The first port of the system's ephemeral range (Linux's default when it cannot be read). */
function ephemeralStart(): number {
  try {
    const first = Number(
      fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0],
    );
    return Number.isInteger(first) && first > 2048 ? first : 32768;
  } catch {
    return 32768;
  }
}

/** Whether nothing listens on `port` of 127.0.0.1 now (it is bound for a moment to find out). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A free port below the ephemeral range, drawn at random from the 12,000 or so beneath it. */
async function redisPort(): Promise<number> {
  const end = ephemeralStart();
  const start = Math.max(1024, end - 12_000);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = start + Math.floor(Math.random() * (end - start));
    if (await portFree(port)) return port;
  }
  throw new Error(`no free port for redis-server between ${start} and ${end}`);
}

export async function startRedisServer(): Promise<RedisServer> {
  // A missing program says how to get it, rather than spawn ENOENT.
  const redisServer = requireProgram("redis-server");
  const redisCli = requireProgram("redis-cli");
  const port = await redisPort();
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
