// One server start, measured: a `node <entry>` process with the App's settings (a throwaway key,
// a model endpoint nothing answers), its CPU (all its threads, from /proc/<pid>/stat) and peak RSS
// once /healthz has answered and the repository workers it warms at start have had a second and a
// half to load. Shared by the start benches (server-start-*.ts).

import { execFileSync, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { freePort, ping } from "../test/support/loupe-process.ts";

const SETTLE_MS = 1500;
const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));

export interface StartCost {
  readonly cpuMs: number;
  readonly peakRssMb: number;
}

/** The App's settings for a server that starts and serves, never reviews. */
export function serverEnv(compileCacheDir: string): NodeJS.ProcessEnv {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  return {
    PATH: process.env.PATH,
    APP_ID: "1",
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET: "bench-secret-long-enough-for-loupe",
    OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    OPENAI_API_KEY: "bench",
    REVIEW_MODEL: "bench",
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    NODE_COMPILE_CACHE: compileCacheDir,
  };
}

/** CPU milliseconds of a process, all its threads, user + system (proc(5): fields 14 and 15). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

function peakRssMb(pid: number): number {
  const line = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(line?.[1] ?? Number.NaN) / 1024;
}

/** Starts `node entry` from `root` (its node_modules' Node), measures it, stops it. */
export async function startOnce(root: string, entry: string, env: NodeJS.ProcessEnv): Promise<StartCost> {
  const port = await freePort();
  const child = spawn(path.join(root, "node_modules", ".bin", "node"), [entry], {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  while (!(await ping(`http://127.0.0.1:${port}`))) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const cost = { cpuMs: cpuMs(child.pid!), peakRssMb: peakRssMb(child.pid!) };
  child.kill("SIGTERM");
  await exited;
  return cost;
}

export const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** "median (lowest-highest)" of per-round ratios b / a. */
export function ratioLine(a: readonly number[], b: readonly number[]): string {
  const ratios = b.map((value, i) => value / a[i]!).sort((x, y) => x - y);
  return `${median(ratios).toFixed(2)} (${ratios[0]!.toFixed(2)}-${ratios.at(-1)!.toFixed(2)})`;
}
