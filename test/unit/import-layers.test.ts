// The folders of src/ sit in six bands (docs/architecture.md draws them, and the glossary under the
// drawing is read here, so the picture and the rule cannot drift apart). An import may point to its
// own band or a band below; inside a band, the folders' imports form no cycle; a short "never" list
// holds what must stay true whatever the bands allow. Entry points (src/*.ts) are apps.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const SRC = path.join(ROOT, "src");
const BANDS = ["core", "engines", "pipeline", "adapters", "forges", "apps"] as const;
type Band = (typeof BANDS)[number];

/** Folder → band, from the doc's `### band` headings and their `- \`folder/\`` lines. */
function glossary(doc: string): Map<string, Band> {
  const section = doc.slice(doc.indexOf("## Bands"));
  const folders = new Map<string, Band>();
  let band: Band | null = null;
  for (const line of section.split("\n").slice(1)) {
    if (line.startsWith("## ")) break;
    const heading = /^### ([a-z]+)$/.exec(line);
    if (heading) band = BANDS.find((name) => name === heading[1]) ?? null;
    const entry = /^- `([a-z/-]+)\/`/.exec(line);
    if (entry && band) folders.set(entry[1]!, band);
  }
  return folders;
}

/** Folder → band, as the drawing (the first code block of the section) places them. */
function drawing(doc: string): Map<string, Band> {
  const section = doc.slice(doc.indexOf("## Bands"));
  const block = section.split("```")[1] ?? "";
  const folders = new Map<string, Band>();
  let band: Band | null = null;
  for (const line of block.split("\n")) {
    const first = line.split(/\s+/)[0] ?? "";
    if (line.length > 0 && !line.startsWith(" ")) band = BANDS.find((name) => name === first) ?? null;
    for (const match of line.matchAll(/(?<=\s)([a-z-]+(?:\/[a-z-]+)?)\/(?=\s|$)/g)) {
      if (band) folders.set(match[1]!, band);
    }
  }
  return folders;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return full.endsWith(".ts") ? [full] : [];
  });
}

/** A file's folder: the longest listed folder that holds it, or "entry" for src/*.ts. */
function folderOf(file: string, root: string, folders: ReadonlyMap<string, Band>): string {
  const rel = path.relative(root, file).split(path.sep).join("/");
  if (!rel.includes("/")) return "entry";
  const holding = [...folders.keys()].filter((folder) => rel.startsWith(`${folder}/`));
  return holding.sort((a, b) => b.length - a.length)[0] ?? `unlisted:${rel.split("/")[0]}`;
}

interface Edge {
  readonly file: string;
  readonly target: string;
  readonly from: string;
  readonly to: string;
}

function imports(root: string, folders: ReadonlyMap<string, Band>): Edge[] {
  return sources(root).flatMap((file) => {
    const text = fs.readFileSync(file, "utf8");
    return [...text.matchAll(/(?:from |import\()"(\.{1,2}\/[^"]+)"/g)].map((match) => {
      const target = path.resolve(path.dirname(file), match[1]!);
      return {
        file: path.relative(root, file),
        target: path.relative(root, target),
        from: folderOf(file, root, folders),
        to: folderOf(target, root, folders),
      };
    });
  });
}

/** A forge's own folder: `forges/<name>`. */
function isForge(folder: string): boolean {
  return folder.startsWith("forges/");
}

function bandOf(folder: string, folders: ReadonlyMap<string, Band>): Band | undefined {
  return folder === "entry" ? "apps" : folders.get(folder);
}

/** What must never be, whatever the bands allow: [why, does this import break it]. */
const NEVER: readonly [string, (edge: Edge, folders: ReadonlyMap<string, Band>) => boolean][] = [
  [
    "an engine imports an adapter",
    (e, f) => bandOf(e.from, f) === "engines" && bandOf(e.to, f) === "adapters",
  ],
  ["a folder below the apps imports cli/", (e, f) => bandOf(e.from, f) !== "apps" && e.to === "cli"],
  [
    "nothing but the apps imports a forge",
    (e, f) => isForge(e.to) && !isForge(e.from) && bandOf(e.from, f) !== "apps",
  ],
  ["a forge imports another forge", (e) => isForge(e.from) && isForge(e.to) && e.from !== e.to],
];

/** What must never be written, whatever is imported: [why, folder, the text]. */
const NEVER_WRITTEN: readonly [string, string, RegExp][] = [
  [
    "replies/ makes a direct Octokit call (a reply goes through the host)",
    "replies",
    /\.rest\.|\.graphql\s*[(<]|\boctokit\??\.(request|paginate)\b/,
  ],
];

/** Where no forge is named in a string: the port's users write every forge's texts in its words. */
const FORGE_FREE = ["domain", "pipeline", "report", "conversation", "review"];
/** The forges' names and words; `.github/loupe.yml` is a path every forge reads, not a name. */
const FORGE_WORDS = /GitHub|GitLab|[Pp]ull request|[Mm]erge request|[Cc]heck run|Re-run/;

/** The string literals of a source file, comments left out. */
function stringsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...code.matchAll(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g)].map((m) => m[0]);
}

function forgeWordProblems(root: string, folders: ReadonlyMap<string, Band>): string[] {
  return sources(root).flatMap((file) => {
    if (!FORGE_FREE.includes(folderOf(file, root, folders))) return [];
    return stringsOf(fs.readFileSync(file, "utf8"))
      .filter((literal) => FORGE_WORDS.test(literal))
      .map(
        (literal) => `${path.relative(root, file)}: never (a forge's name or words in a string: ${literal})`,
      );
  });
}

function writtenProblems(root: string, folders: ReadonlyMap<string, Band>): string[] {
  return sources(root).flatMap((file) => {
    const folder = folderOf(file, root, folders);
    const text = fs.readFileSync(file, "utf8");
    return NEVER_WRITTEN.filter(([, where, pattern]) => where === folder && pattern.test(text)).map(
      ([why]) => `${path.relative(root, file)}: never (${why})`,
    );
  });
}

function bandProblems(root: string, folders: ReadonlyMap<string, Band>): string[] {
  const problems: string[] = [];
  for (const edge of imports(root, folders)) {
    const from = bandOf(edge.from, folders);
    const to = bandOf(edge.to, folders);
    const says = `${edge.file} (${edge.from}, ${from}) imports ${edge.target} (${edge.to}, ${to})`;
    if (from === undefined) problems.push(`${edge.file} is in no band (${edge.from})`);
    else if (to !== undefined && BANDS.indexOf(to) > BANDS.indexOf(from)) problems.push(`${says}: upward`);
    for (const [why, breaks] of NEVER) if (breaks(edge, folders)) problems.push(`${says}: never (${why})`);
  }
  return [...new Set([...problems, ...writtenProblems(root, folders), ...forgeWordProblems(root, folders)])];
}

/** Folder cycles (within a band: across bands one direction is already upward). */
function folderCycles(root: string, folders: ReadonlyMap<string, Band>): string[] {
  const next = new Map<string, Set<string>>();
  for (const edge of imports(root, folders)) {
    if (edge.from === edge.to) continue;
    next.set(edge.from, (next.get(edge.from) ?? new Set()).add(edge.to));
  }
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (folder: string, trail: string[]): void => {
    if (trail.includes(folder)) {
      cycles.push([...trail.slice(trail.indexOf(folder)), folder].join(" → "));
      return;
    }
    if (done.has(folder)) return;
    for (const to of next.get(folder) ?? []) visit(to, [...trail, folder]);
    done.add(folder);
  };
  for (const folder of next.keys()) visit(folder, []);
  return cycles;
}

/** The folders the glossary must name: every folder of src/, and every forge under forges/. */
function foldersOnDisk(): string[] {
  const dirs = (dir: string) =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  const forges = dirs(path.join(SRC, "forges")).map((name) => `forges/${name}`);
  return [...dirs(SRC).filter((name) => name !== "forges"), ...forges].sort();
}

describe("the bands of src/", () => {
  const doc = fs.readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");
  const folders = glossary(doc);

  it("name every folder of src/ in the glossary, and no folder that is not there", () => {
    expect([...folders.keys()].sort()).toEqual(foldersOnDisk());
  });

  it("are drawn as the glossary lists them", () => {
    expect([...drawing(doc)].sort()).toEqual([...folders].sort());
  });

  it("only import their own band or one below, and never what the never list forbids", () => {
    expect(bandProblems(SRC, folders)).toEqual([]);
  });

  it("hold no folder-level cycle", () => {
    expect(folderCycles(SRC, folders)).toEqual([]);
  });

  it("would report an upward import, a never, and a cycle", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-bands-"));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    try {
      write("domain/a.ts", 'import type { B } from "../llm/b.ts";\n');
      write("llm/b.ts", 'export type B = import("../forges/github/c.ts").C;\n');
      write("forges/github/c.ts", 'import { d } from "../../jobs/d.ts";\n');
      write("jobs/d.ts", 'import { c } from "../forges/github/c.ts";\n');
      write(
        "replies/e.ts",
        'import { c } from "../forges/github/c.ts";\nawait options.octokit.rest.pulls.get({});\n',
      );
      write("replies/f.ts", 'import type { GitHubClient } from "../forges/github/octokit.ts";\n');
      write("pipeline/g.ts", '// GitHub, in a comment, is fine\nexport const note = "GitHub refused it";\n');
      write("conversation/h.ts", "export const help = `review the whole pull request`;\n");
      write("llm/k.ts", 'import { d } from "../jobs/d.ts";\n');
      write("review/i.ts", 'export const why = "which GitHub cannot fence";\n');
      write("forges/gitlab/i.ts", 'import { c } from "../github/c.ts";\n');
      // The apps choose and start the forges: their imports of one are the only ones allowed.
      write(
        "cli/j.ts",
        'import { c } from "../forges/github/c.ts";\nimport { i } from "../forges/gitlab/i.ts";\n',
      );
      const test = new Map<string, Band>([
        ["domain", "core"],
        ["llm", "engines"],
        ["forges/github", "forges"],
        ["forges/gitlab", "forges"],
        ["cli", "apps"],
        ["jobs", "adapters"],
        ["replies", "adapters"],
        ["pipeline", "pipeline"],
        ["conversation", "engines"],
        ["review", "engines"],
      ]);
      expect(bandProblems(dir, test)).toEqual([
        "domain/a.ts (domain, core) imports llm/b.ts (llm, engines): upward",
        "forges/gitlab/i.ts (forges/gitlab, forges) imports forges/github/c.ts (forges/github, forges): never (a forge imports another forge)",
        "jobs/d.ts (jobs, adapters) imports forges/github/c.ts (forges/github, forges): upward",
        "jobs/d.ts (jobs, adapters) imports forges/github/c.ts (forges/github, forges): never (nothing but the apps imports a forge)",
        "llm/b.ts (llm, engines) imports forges/github/c.ts (forges/github, forges): upward",
        "llm/b.ts (llm, engines) imports forges/github/c.ts (forges/github, forges): never (nothing but the apps imports a forge)",
        "llm/k.ts (llm, engines) imports jobs/d.ts (jobs, adapters): upward",
        "llm/k.ts (llm, engines) imports jobs/d.ts (jobs, adapters): never (an engine imports an adapter)",
        "replies/e.ts (replies, adapters) imports forges/github/c.ts (forges/github, forges): upward",
        "replies/e.ts (replies, adapters) imports forges/github/c.ts (forges/github, forges): never (nothing but the apps imports a forge)",
        "replies/f.ts (replies, adapters) imports forges/github/octokit.ts (forges/github, forges): upward",
        "replies/f.ts (replies, adapters) imports forges/github/octokit.ts (forges/github, forges): never (nothing but the apps imports a forge)",
        "replies/e.ts: never (replies/ makes a direct Octokit call (a reply goes through the host))",
        "conversation/h.ts: never (a forge's name or words in a string: `review the whole pull request`)",
        'pipeline/g.ts: never (a forge\'s name or words in a string: "GitHub refused it")',
        'review/i.ts: never (a forge\'s name or words in a string: "which GitHub cannot fence")',
      ]);
      expect(folderCycles(dir, test)).toEqual(["forges/github → jobs → forges/github"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
