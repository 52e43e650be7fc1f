// Where the eval steps keep their files: `<results>/<variant>/<pull key>--run<N>.json` for a review
// and `…--run<N>.judged.json` for its judgement. A step skips what already has its file, so an
// interrupted run or judgement resumes where it stopped.

import fs from "node:fs/promises";
import path from "node:path";
import { LoupeError } from "../domain/errors.ts";
import { type Manifest, parseManifest } from "./manifest.ts";

export const resultName = (key: string, run: number): string => `${key}--run${run}.json`;
export const judgedName = (key: string, run: number): string => `${key}--run${run}.judged.json`;

const RESULT = /^(.+)--run(\d+)\.json$/;
const JUDGED = /^(.+)--run(\d+)\.judged\.json$/;

export interface StoredFile {
  readonly variant: string;
  readonly key: string;
  readonly run: number;
  readonly file: string;
}

/** Every variant directory's result (or judged) files, sorted: a deterministic order of work. */
export async function listStored(results: string, kind: "result" | "judged"): Promise<StoredFile[]> {
  const pattern = kind === "result" ? RESULT : JUDGED;
  const variants = (await fs.readdir(results, { withFileTypes: true })).filter((e) => e.isDirectory());
  const files: StoredFile[] = [];
  for (const variant of variants.map((e) => e.name).sort()) {
    for (const name of (await fs.readdir(path.join(results, variant))).sort()) {
      if (kind === "result" && JUDGED.test(name)) continue;
      const match = pattern.exec(name);
      if (match === null) continue;
      files.push({ variant, key: match[1]!, run: Number(match[2]), file: path.join(results, variant, name) });
    }
  }
  return files;
}

export async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

export async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await fs.readFile(file, "utf8")) as unknown;
}

/** Written whole then renamed: an interrupted write never leaves a file a resumed step would skip. */
export async function writeJson(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  await fs.writeFile(partial, `${JSON.stringify(value, null, 2)}\n`);
  await fs.rename(partial, file);
}

export async function readManifest(file: string): Promise<Manifest> {
  const text = await fs.readFile(file, "utf8").catch(() => {
    throw new LoupeError("usage_invalid", `cannot read the manifest ${file}`);
  });
  const manifest = parseManifest(text);
  if (typeof manifest === "string") throw new LoupeError("usage_invalid", manifest);
  return manifest;
}
