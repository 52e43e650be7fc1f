// What a server process costs to start, run from the TypeScript sources (as `npm start` and the
// end-to-end worlds run it) against the same code bundled by esbuild into one file for the server
// and one for the repository worker: alternating, ROUNDS times, each process's CPU (all its
// threads, from /proc/<pid>/stat) once /healthz has answered and the two repository workers it
// warms at start have had a second and a half to load. A measurement for a packaging decision;
// nothing ships the bundle. The optional dependencies (the fleet's and the dashboard's) stay
// outside it, as an install may lack them.
//   node_modules/.bin/node bench/server-start-bundled.ts [ROUNDS]

import { execFileSync, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { REQUIRE_BANNER } from "../scripts/build-action.ts";
import { freePort } from "../test/support/loupe-process.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const ROUNDS = Number(process.argv[2] ?? 5);
const SETTLE_MS = 1500;
const OPTIONAL = Object.keys(
  (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { optionalDependencies: object })
    .optionalDependencies,
);

/** The bundle laid out as the sources are: package.json one level above the server's file. */
async function bundle(dir: string): Promise<string> {
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  fs.copyFileSync(path.join(ROOT, "package.json"), path.join(dir, "package.json"));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  // The server finds its worker's script next to its own file (src/isolation/worker-entry.ts).
  for (const [entry, out] of [
    ["src/server.ts", "server.js"],
    ["src/isolation/worker-main.ts", "worker-main.js"],
  ] as const) {
    await build({
      absWorkingDir: ROOT,
      entryPoints: [entry],
      outfile: path.join(dir, "src", out),
      bundle: true,
      platform: "node",
      target: "node24",
      format: "esm",
      preserveSymlinks: true,
      external: OPTIONAL.flatMap((name) => [name, `${name}/*`]),
      logLevel: "error",
      banner: { js: REQUIRE_BANNER },
    });
  }
  return path.join(dir, "src", "server.js");
}

function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(`http://127.0.0.1:${port}/healthz`, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on("error", () => resolve(false));
  });
}

const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));

/** CPU milliseconds of a process, all its threads, user + system (proc(5): fields 14 and 15). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

async function startOnce(entry: string, env: NodeJS.ProcessEnv): Promise<number> {
  const port = await freePort();
  const child = spawn(path.join(ROOT, "node_modules", ".bin", "node"), [entry], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  while (!(await healthy(port))) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const spent = cpuMs(child.pid!);
  child.kill("SIGTERM");
  await exited;
  return spent;
}

const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-bundle-"));
try {
  const bundled = await bundle(tmp);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    APP_ID: "1",
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET: "bench-secret-long-enough-for-loupe",
    OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    OPENAI_API_KEY: "bench",
    REVIEW_MODEL: "bench",
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    NODE_COMPILE_CACHE: path.join(tmp, "compile-cache"),
  };
  const sources = path.join(ROOT, "src", "server.ts");
  await startOnce(sources, env); // warm-up: the compile cache and the page cache, both ways
  await startOnce(bundled, env);
  const figures = { sources: [] as number[], bundle: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    figures.sources.push(await startOnce(sources, env));
    figures.bundle.push(await startOnce(bundled, env));
    process.stderr.write(
      `round ${round + 1}: sources ${figures.sources.at(-1)} ms, bundle ${figures.bundle.at(-1)} ms\n`,
    );
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const ratios = figures.bundle.map((b, i) => b / figures.sources[i]!).sort((a, b) => a - b);
  process.stdout.write(
    `server start, CPU of the process: sources ${median(figures.sources)} ms, bundle ${median(figures.bundle)} ms ` +
      `(medians of ${ROUNDS}); bundle / sources ${median(ratios).toFixed(2)} (${ratios[0]!.toFixed(2)}-${ratios.at(-1)!.toFixed(2)})\n`,
  );
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
