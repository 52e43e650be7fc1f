// Loupe as a real server process: spawned with the README's run command (`npm start`, or the
// equivalent `node src/server.ts` with the project's Node 24), configured only through its
// environment, pointed at a fake GitHub and a scripted model. Captures stdout/stderr so tests can
// assert that no secret ever reaches a log line. Used by the e2e tests and the load benchmarks.

import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { compileCacheEnv } from "./compile-cache.ts";
import { tether } from "./tether.ts";

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface LoupeProcessOptions {
  /** "npm": `npm start` with node_modules/.bin first on PATH; "node": `node src/server.ts`. */
  readonly command: "npm" | "node";
  readonly env: Readonly<Record<string, string>>;
  /** How long to wait for GET /healthz before giving up (a startup failure, not a test timing). */
  readonly startupTimeoutMs?: number;
  /** The working directory (where `.env` is read from); the project root by default. */
  readonly cwd?: string;
  /** The project to run (a clean copy for the production-install test); this one by default. */
  readonly root?: string;
}

export interface LoupeProcess {
  readonly pid: number;
  readonly port: number;
  readonly url: string;
  readonly webhookUrl: string;
  /** Everything the process wrote so far, stdout and stderr interleaved, as text. */
  output(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Peak resident set (VmHWM) of the server process in KiB, read from /proc while it runs. */
  peakRssKiB(): number | undefined;
  /** false once the process has exited. */
  alive(): boolean;
  /**
   * Polls `probe` every 100 ms until it gives a value; fails with the process's output if the
   * process exits first. Bounded only by the test's own timeout (no duration is asserted).
   */
  until<T>(probe: () => T | undefined, what: string): Promise<T>;
  /** SIGTERM to the process group, SIGKILL after graceMs; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The environment that points a Loupe process at a fake GitHub (as a GitHub Enterprise host over
 * http) and a scripted model, in production mode but for the write spacing; `extra` adds or
 * overrides variables.
 */
export function fakeWorldEnv(world: {
  readonly github: { readonly appId: string; readonly privateKey: string; readonly host: string };
  readonly providerBaseURL: string;
  readonly webhookSecret: string;
  readonly apiKey: string;
  readonly extra?: Readonly<Record<string, string>>;
}): Record<string, string> {
  return {
    APP_ID: world.github.appId,
    PRIVATE_KEY: world.github.privateKey,
    WEBHOOK_SECRET: world.webhookSecret,
    GHE_HOST: world.github.host,
    GHE_PROTOCOL: "http",
    OPENAI_BASE_URL: world.providerBaseURL,
    OPENAI_API_KEY: world.apiKey,
    REVIEW_MODEL: "deepseek-v4-flash",
    // The scripted providers script only the reviewer unless a test turns verification on.
    REVIEW_VERIFY: "off",
    LOG_LEVEL: "info",
    NODE_ENV: "production",
    // Writes 20 ms apart, not Probot's second (three for a review): a world's reviews would
    // otherwise wait out GitHub's spacing on a fake that has none. test/e2e/app/app-server.test.ts
    // keeps the production default.
    GITHUB_WRITE_SPACING_MS: "20",
    ...world.extra,
  };
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether the Loupe at `url` answers /healthz with 200 (false on any error, or after a second). */
export function ping(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(`${url}/healthz`, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on("error", () => resolve(false));
    request.setTimeout(1000, () => request.destroy());
  });
}

function spawnLoupe(options: LoupeProcessOptions, port: number) {
  const root = options.root ?? PROJECT_ROOT;
  const bin = path.join(root, "node_modules", ".bin");
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-home-"));
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: home,
    TMPDIR: os.tmpdir(),
    HOST: "127.0.0.1",
    PORT: String(port),
    ...compileCacheEnv(),
    ...options.env,
  };
  const [file, args] =
    options.command === "npm"
      ? ["npm", ["start", "--silent"]]
      : [path.join(bin, "node"), [path.join(root, "src", "server.ts")]];
  const child: ChildProcess = spawn(file, args, {
    cwd: options.cwd ?? root,
    env,
    detached: true, // its own process group, so npm's children stop with it
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  // Detached, it would outlive a test process that dies before stopping it.
  const untie = child.pid === undefined ? () => {} : tether(child.pid);
  void exited.then(() => {
    untie();
    fs.rmSync(home, { recursive: true, force: true });
  });
  const output = () => Buffer.concat(chunks).toString("utf8");
  return { child, exited, output };
}

/** Runs Loupe until it exits by itself (a startup refusal); fails if it starts serving instead. */
export async function runLoupeToExit(
  options: LoupeProcessOptions,
): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  const { child, exited, output } = spawnLoupe(options, port);
  let settled = false;
  void exited.then(() => (settled = true));
  const deadline = Date.now() + (options.startupTimeoutMs ?? 30_000);
  while (!settled) {
    if ((await ping(`http://127.0.0.1:${port}`)) || Date.now() > deadline) {
      process.kill(-child.pid!, "SIGKILL");
      await exited;
      throw new Error(`Loupe started (or hung) instead of refusing; its output:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { code: (await exited).code, output: output() };
}

export async function startLoupeProcess(options: LoupeProcessOptions): Promise<LoupeProcess> {
  const port = Number(options.env.PORT ?? (await freePort()));
  const { child, exited, output } = spawnLoupe(options, port);
  let done = false;
  void exited.then(() => {
    done = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const pid = child.pid!;

  const stop = async (graceMs = 10_000) => {
    if (done) return;
    process.kill(-pid, "SIGTERM");
    const timer = setTimeout(() => {
      if (!done) process.kill(-pid, "SIGKILL");
    }, graceMs);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (options.startupTimeoutMs ?? 30_000);
  while (!(await ping(url))) {
    if (done || Date.now() > deadline) {
      await stop(1000);
      throw new Error(`Loupe did not start (${options.command}); its output:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    pid,
    port,
    url,
    webhookUrl: `${url}/api/github/webhooks`,
    output,
    exited,
    alive: () => !done,
    until: async <T>(probe: () => T | undefined, what: string): Promise<T> => {
      for (;;) {
        const value = probe();
        if (value !== undefined) return value;
        if (done) throw new Error(`Loupe exited while waiting for ${what}:\n${output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    peakRssKiB: () => serverPeakRss(pid),
    stop,
  };
}

/** The pids still alive in a process group (a spawned Loupe leads its own: see spawnLoupe). */
export function processGroupMembers(leader: number): number[] {
  const members: number[] = [];
  for (const name of fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    let stat = "";
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the parenthesised name: the state (Z: a zombie, already gone), then ppid, then pgid.
    if (Number(fields[2]) === leader && fields[0] !== "Z") members.push(Number(name));
  }
  return members;
}

/** The largest VmHWM in the process group: the server itself when spawned with "node". */
function serverPeakRss(leader: number): number | undefined {
  const read = (pid: number) => {
    try {
      return fs.readFileSync(`/proc/${pid}/status`, "utf8");
    } catch {
      return undefined;
    }
  };
  const pids = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  let best: number | undefined;
  for (const name of pids) {
    const status = read(Number(name));
    if (status === undefined) continue;
    const stat = (() => {
      try {
        return fs.readFileSync(`/proc/${name}/stat`, "utf8");
      } catch {
        return "";
      }
    })();
    // Field 5 of /proc/<pid>/stat (after the parenthesised name) is the process group id.
    const pgid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
    if (pgid !== leader) continue; // the server (and, under npm, npm and sh: an upper bound)
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(status);
    if (hwm) best = Math.max(best ?? 0, Number(hwm[1]));
  }
  return best;
}
