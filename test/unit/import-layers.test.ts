// The folders of src/ form layers, and an import may only point to its own folder or one below:
// the order is the one docs/architecture.md draws (read from it here, so the picture and the rule
// cannot drift apart). Entry points (src/*.ts) sit on top. A folder-level cycle is impossible
// when every import points down, and the test says which import broke the order.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const SRC = path.join(ROOT, "src");

/** The layers, bottom first, from the doc's numbered list of `folder/` entries. */
function layersFromDoc(): string[] {
  const doc = fs.readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Layers"));
  return [...section.matchAll(/^\d+\. `([a-z/-]+)\/`/gm)].map((m) => m[1]!);
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return full.endsWith(".ts") ? [full] : [];
  });
}

/** A file's layer: the longest listed folder that holds it, or "entry" for src/*.ts. */
function layerOf(file: string, root: string, layers: readonly string[]): string {
  const rel = path.relative(root, file).split(path.sep).join("/");
  if (!rel.includes("/")) return "entry";
  const holding = layers.filter((layer) => rel.startsWith(`${layer}/`));
  return holding.sort((a, b) => b.length - a.length)[0] ?? `unlisted:${rel.split("/")[0]}`;
}

function upwardImports(root: string, layers: readonly string[]): string[] {
  const rank = new Map([...layers, "entry"].map((layer, index) => [layer, index]));
  const problems: string[] = [];
  for (const file of sources(root)) {
    const from = layerOf(file, root, layers);
    if (!rank.has(from)) problems.push(`${path.relative(root, file)} is in no layer (${from})`);
    for (const match of fs.readFileSync(file, "utf8").matchAll(/from "(\.{1,2}\/[^"]+)"/g)) {
      const target = path.resolve(path.dirname(file), match[1]!);
      const to = layerOf(target, root, layers);
      if ((rank.get(to) ?? -1) > (rank.get(from) ?? -1)) {
        problems.push(
          `${path.relative(root, file)} (${from}) imports ${path.relative(root, target)} (${to})`,
        );
      }
    }
  }
  return problems;
}

describe("the layers of src/", () => {
  const layers = layersFromDoc();

  it("are listed in docs/architecture.md and cover every folder", () => {
    expect(layers.length).toBeGreaterThan(10);
    const folders = fs
      .readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    for (const folder of folders) expect(layers.some((layer) => layer.split("/")[0] === folder)).toBe(true);
  });

  it("only import downward", () => {
    expect(upwardImports(SRC, layers)).toEqual([]);
  });

  it("would report an import that points up", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-layers-"));
    try {
      fs.mkdirSync(path.join(dir, "low"));
      fs.mkdirSync(path.join(dir, "high"));
      fs.writeFileSync(path.join(dir, "high", "a.ts"), 'import { b } from "../low/b.ts";\n');
      fs.writeFileSync(path.join(dir, "low", "b.ts"), 'import type { a } from "../high/a.ts";\n');
      expect(upwardImports(dir, ["low", "high"])).toEqual(["low/b.ts (low) imports high/a.ts (high)"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
