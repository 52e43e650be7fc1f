// npm 11 runs a dependency's install script only when package.json's `allowScripts` allows it,
// and warns "install scripts not yet covered by allowScripts" for every package it does not list.
// Each package with an install script in the lock must be listed, allowed or not, so that
// `npm ci` stays quiet and a new one is a decision (docs/install.md, "What npm warns about").

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8"));

describe("install scripts", () => {
  it("are each allowed or refused in allowScripts; only the node package's runs", () => {
    const lock = read("package-lock.json") as { packages: Record<string, { hasInstallScript?: boolean }> };
    const allow = (read("package.json") as { allowScripts: Record<string, boolean> }).allowScripts;
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([where]) => where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(withScripts.filter((name) => !(name in allow))).toEqual([]);
    expect(Object.keys(allow).filter((name) => allow[name])).toEqual(["node"]);
  });
});
