// Bundles the GitHub Action's entry (src/action.ts) into one file, dist-action/index.js, which is
// committed so that a workflow runs Loupe with no install step. The build is deterministic — the
// same sources and node_modules give the same bytes — so a test rebuilds it and fails when the
// committed bundle is stale: paths are kept as written (node_modules may be a symlink), and the
// output is minified, so no path comment of the machine that built it lands in the file.
//
//   node scripts/build-action.ts            writes dist-action/index.js
//   node scripts/build-action.ts --check    exits 1 when the committed bundle differs

import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const BUNDLE = path.join(ROOT, "dist-action", "index.js");

/** CommonJS packages inside an ES module bundle still call require() for Node's built-ins. */
export const REQUIRE_BANNER =
  'import{createRequire as __loupeRequire}from"node:module";const require=__loupeRequire(import.meta.url);';

/** The bundle's text, built in memory. */
export async function buildActionBundle(): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ["src/action.ts"],
    bundle: true,
    platform: "node",
    target: "node24",
    format: "esm",
    minify: true,
    legalComments: "eof",
    charset: "utf8",
    preserveSymlinks: true,
    write: false,
    outfile: BUNDLE,
    logLevel: "warning",
    banner: { js: REQUIRE_BANNER },
  });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error("esbuild wrote no bundle");
  return file.text;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const text = await buildActionBundle();
  if (process.argv.includes("--check")) {
    const committed = fs.existsSync(BUNDLE) ? fs.readFileSync(BUNDLE, "utf8") : "";
    if (committed !== text) {
      process.stderr.write("dist-action/index.js is stale: run node scripts/build-action.ts\n");
      process.exitCode = 1;
    }
  } else {
    fs.mkdirSync(path.dirname(BUNDLE), { recursive: true });
    fs.writeFileSync(BUNDLE, text);
    process.stdout.write(`wrote ${path.relative(ROOT, BUNDLE)} (${Math.round(text.length / 1024)} KiB)\n`);
  }
}
