// Before the first test: the programs the tests run for real (test/support/programs.ts) must be
// there. On Debian or Ubuntu as root, with apt-get on PATH, the missing ones are installed (what
// .ci/run did by itself); anywhere else the run stops here with one message that lists each
// missing program and how to get it. Nothing is skipped later for want of a program.
//
//   node test/support/preflight.ts            # npm run check and npm test run it first
//   LOUPE_PREFLIGHT_INSTALL=0 ...             # only report, never install

import { spawnSync } from "node:child_process";
import { missingMessage, missingPrograms, onPath, type Program } from "./programs.ts";

function canInstall(env: NodeJS.ProcessEnv): boolean {
  return env.LOUPE_PREFLIGHT_INSTALL !== "0" && process.getuid?.() === 0 && onPath("apt-get", env) !== null;
}

function aptInstall(missing: readonly Program[], env: NodeJS.ProcessEnv): void {
  const packages = [...new Set(missing.map((p) => p.apt))];
  console.error(`Installing what the tests need: apt-get install ${packages.join(" ")}`);
  const run = (args: string[]) =>
    spawnSync("apt-get", args, {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...env, DEBIAN_FRONTEND: "noninteractive" },
    });
  run(["update"]);
  run(["install", "-y", "--no-install-recommends", ...packages]);
}

export function preflight(env: NodeJS.ProcessEnv = process.env): number {
  let missing = missingPrograms(env);
  if (missing.length > 0 && canInstall(env)) {
    aptInstall(missing, env);
    missing = missingPrograms(env);
  }
  if (missing.length === 0) return 0;
  console.error(
    `The tests run these programs for real, and ${missing.length === 1 ? "this one is" : "these are"} missing:\n` +
      missingMessage(missing, env),
  );
  return 1;
}

if (import.meta.main) process.exitCode = preflight();
