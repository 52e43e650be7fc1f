// What a server process costs to start, run from the TypeScript sources (as `npm start` and the
// end-to-end worlds run it) against the same code bundled by esbuild into one file for the server
// and one for the repository worker: alternating, ROUNDS times, each process's CPU (all its
// threads, from /proc/<pid>/stat) once /healthz has answered and the two repository workers it
// warms at start have had a second and a half to load. A measurement for a packaging decision;
// nothing ships the bundle. The optional dependencies (the fleet's and the dashboard's) stay
// outside it, as an install may lack them.
//   node_modules/.bin/node bench/server-start-bundled.ts [ROUNDS]

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { REQUIRE_BANNER } from "../scripts/build-action.ts";
import { median, ratioLine, serverEnv, startOnce } from "./server-start-process.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const ROUNDS = Number(process.argv[2] ?? 5);
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

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-bundle-"));
try {
  const bundled = await bundle(tmp);
  const env = serverEnv(path.join(tmp, "compile-cache"));
  const sources = path.join(ROOT, "src", "server.ts");
  await startOnce(ROOT, sources, env); // warm-up: the compile cache and the page cache, both ways
  await startOnce(ROOT, bundled, env);
  const figures = { sources: [] as number[], bundle: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    figures.sources.push((await startOnce(ROOT, sources, env)).cpuMs);
    figures.bundle.push((await startOnce(ROOT, bundled, env)).cpuMs);
    process.stderr.write(
      `round ${round + 1}: sources ${figures.sources.at(-1)} ms, bundle ${figures.bundle.at(-1)} ms\n`,
    );
  }
  process.stdout.write(
    `server start, CPU of the process: sources ${median(figures.sources)} ms, bundle ${median(figures.bundle)} ms ` +
      `(medians of ${ROUNDS}); bundle / sources ${ratioLine(figures.sources, figures.bundle)}\n`,
  );
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
