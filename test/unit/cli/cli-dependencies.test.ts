// The `loupe` command runs on `dependencies` alone. What only the App's server needs (BullMQ and
// Redis, the dashboard, metrics, smee; and the Node 24 a machine may already have) is an optional
// dependency, so `npm install -g --omit=optional loupe-review` is a smaller install
// (bench/README.md, "Install weight"). Probot stays a plain dependency: on Node 20, npm drops an
// optional package whose tree asks for a newer Node (Probot's does), and `npm start` needs it.
// Every module src/cli.ts can load (static imports and the commands' dynamic imports, type-only
// imports aside) is read here, and each package it names must be a plain dependency.

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};

const IMPORT = /^\s*(?:import|export)\s+(type\s+)?[^;]*?\sfrom\s+"([^"]+)"|import\("([^"]+)"\)/gms;

/** The packages the modules reachable from `entry` import at run time, each with one importer. */
function runtimePackages(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
      if (match[1] !== undefined) continue; // erased at run time
      const spec = (match[2] ?? match[3])!;
      if (spec.startsWith(".")) stack.push(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith("node:")) {
        const name = spec
          .split("/")
          .slice(0, spec.startsWith("@") ? 2 : 1)
          .join("/");
        if (!packages.has(name)) packages.set(name, path.relative(ROOT, file));
      }
    }
  }
  return packages;
}

describe("the loupe command's dependencies", () => {
  it("are all plain dependencies: the server's are optional, and the command never loads them", () => {
    const used = runtimePackages(path.join(ROOT, "src", "cli.ts"));
    expect(used.has("openai")).toBe(true); // the reading works: `loupe review` needs the client
    const notPlain = [...used].filter(([name]) => !(name in pkg.dependencies));
    expect(notPlain).toEqual([]);
    const server = runtimePackages(path.join(ROOT, "src", "server.ts"));
    for (const name of ["bullmq", "ioredis", "prom-client", "smee-client"]) {
      expect([name, name in pkg.optionalDependencies]).toEqual([name, server.has(name)]);
    }
  });
});
