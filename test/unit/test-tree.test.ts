// The tests of a folder are found from the folder (docs/testing.md): in the unit and integration
// tiers a test sits in `test/<tier>/<folder of src/>/`, in the end-to-end tier in the folder of the
// way Loupe runs; only rules over the whole project sit at a tier's root. A test added at a root, or
// in a folder no newcomer would look in, fails here with the place it belongs.

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Folders of the unit and integration tiers that are not folders of src/. */
const BESIDE_SRC = new Set([
  "app", // src/app.ts in process, one file per concept of the App
  "deploy", // the manifests of deploy/
  "support", // the test worlds of test/support/ themselves
]);

/** The end-to-end tier's folders: the ways Loupe runs. */
const E2E_FOLDERS = new Set(["action", "app", "fleet", "gitlab", "install", "setup", "support"]);

/** Rules over the whole project, at a tier's root. */
const AT_ROOT: Readonly<Record<string, readonly string[]>> = {
  unit: [
    "docs-configuration.test.ts",
    "import-graph.test.ts",
    "import-layers.test.ts",
    "install-scripts.test.ts",
    "runtime.test.ts",
    "test-tree.test.ts",
  ],
  integration: ["readme-commands.test.ts"],
  e2e: ["readme-picture.test.ts"],
  drift: ["native-ratios.test.ts"],
};

function srcFolders(): Set<string> {
  const folders = new Set<string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const name = `${prefix}${entry.name}`;
      folders.add(name);
      walk(path.join(dir, entry.name), `${name}/`);
    }
  };
  walk(path.join(ROOT, "src"), "");
  return folders;
}

function testFiles(tier: string): string[] {
  const files: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const name = `${prefix}${entry.name}`;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${name}/`);
      else if (entry.name.endsWith(".test.ts")) files.push(name);
    }
  };
  walk(path.join(ROOT, "test", tier), "");
  return files;
}

/** Why a test file (its path inside its tier) is out of place, or null when it is where it belongs. */
function misplaced(tier: string, file: string, folders: ReadonlySet<string>): string | null {
  const folder = path.posix.dirname(file);
  if (folder === ".") {
    return (AT_ROOT[tier] ?? []).includes(file)
      ? null
      : `test/${tier}/${file} sits at the tier's root: move it to test/${tier}/<folder>/ (docs/testing.md)`;
  }
  if (tier === "e2e") {
    return E2E_FOLDERS.has(folder)
      ? null
      : `test/e2e/${file}: ${folder}/ is not one of the end-to-end folders (${[...E2E_FOLDERS].join(", ")})`;
  }
  if (tier === "unit" || tier === "integration") {
    return folders.has(folder) || BESIDE_SRC.has(folder)
      ? null
      : `test/${tier}/${file}: ${folder}/ is neither a folder of src/ nor one of ${[...BESIDE_SRC].join(", ")}`;
  }
  return `test/${tier}/${file}: the ${tier} tier has no folders`;
}

describe("the test tree", () => {
  const folders = srcFolders();

  it.each(["unit", "integration", "e2e", "drift"])(
    "puts every %s test where its folder's tests are",
    (tier) => {
      const files = testFiles(tier);
      expect(files.length).toBeGreaterThan(0);
      expect(files.map((file) => misplaced(tier, file, folders)).filter((why) => why !== null)).toEqual([]);
    },
  );

  it("names where a misplaced test belongs", () => {
    expect(misplaced("unit", "glob.test.ts", folders)).toBe(
      "test/unit/glob.test.ts sits at the tier's root: move it to test/unit/<folder>/ (docs/testing.md)",
    );
    expect(misplaced("integration", "forges/bitbucket/x.test.ts", folders)).toMatch(
      /forges\/bitbucket\/ is neither a folder of src\//,
    );
    expect(misplaced("e2e", "workspace/x.test.ts", folders)).toMatch(/is not one of the end-to-end folders/);
    expect(misplaced("unit", "forges/gitlab/gitlab-config.test.ts", folders)).toBeNull();
    expect(misplaced("unit", "config/glob.test.ts", folders)).toBeNull();
  });
});
