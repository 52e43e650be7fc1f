// Builds the monorepo of the fetch memory figure: FILES small source files (about 300 bytes each,
// 1,000 to a directory), a base commit and a pull request changing one file in a hundred, written
// with `git fast-import` into a bare repository and repacked. Prints `head merge-base` on stdout.
// CHANGED_DIRS limits the change to the first so many directories (default: every one, the
// worst case for a review's second walk; 1 is a pull request as most are, ten files in one place).
// usage: node bench/build-monorepo.ts <bare-dir> [FILES] [CHANGED_DIRS]   (default 100000, all)
import { execFileSync } from "node:child_process";

const [dir, filesArg, changedDirsArg] = process.argv.slice(2);
if (dir === undefined) {
  process.stderr.write("usage: node bench/build-monorepo.ts <bare-dir> [FILES] [CHANGED_DIRS]\n");
  process.exit(2);
}
const files = Number(filesArg ?? 100_000);
const changedDirs = Number(changedDirsArg ?? Number.POSITIVE_INFINITY);
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C" };
execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", dir], { env });
const content = (n: number, version: number) =>
  `// module ${n}\nexport const value${n} = ${n * 7 + version};\nexport function read${n}(input: string): string {\n  return input.slice(${n % 13}) + "${version}";\n}\n`.repeat(
    2,
  );
const parts: string[] = [];
const names: string[] = [];
for (let n = 0; n < files; n += 1) {
  const name = `packages/p${Math.floor(n / 1000)}/src/m${n}.ts`;
  names.push(name);
  parts.push(`blob\nmark :${n + 1}\ndata ${Buffer.byteLength(content(n, 0))}\n${content(n, 0)}\n`);
}
const isChanged = (n: number) => n % 100 === 0 && Math.floor(n / 1000) < changedDirs;
const changed = names.map((_, n) => n).filter(isChanged);
for (const n of changed)
  parts.push(`blob\nmark :${files + n + 1}\ndata ${Buffer.byteLength(content(n, 1))}\n${content(n, 1)}\n`);
const commit = (ref: string, mark: number, from: number | undefined, changedToo: boolean) => {
  const lines = [
    `commit ${ref}`,
    `mark :${mark}`,
    "committer Loupe Bench <bench@loupe.invalid> 1700000000 +0000",
    "data 6",
    "commit",
  ];
  if (from !== undefined) lines.push(`from :${from}`);
  lines.push("deleteall");
  names.forEach((name, n) => {
    lines.push(`M 100644 :${changedToo && isChanged(n) ? files + n + 1 : n + 1} ${name}`);
  });
  return `${lines.join("\n")}\n`;
};
parts.push(commit("refs/heads/main", 3 * files, undefined, false));
parts.push(commit("refs/pull/1/head", 3 * files + 1, 3 * files, true));
execFileSync("git", ["-C", dir, "fast-import", "--quiet"], {
  env,
  input: parts.join(""),
  maxBuffer: 1 << 30,
});
execFileSync("git", ["-C", dir, "repack", "-a", "-d", "-q"], { env });
const rev = (r: string) => execFileSync("git", ["-C", dir, "rev-parse", r], { env, encoding: "utf8" }).trim();
process.stdout.write(`${rev("refs/pull/1/head")} ${rev("refs/heads/main")}\n`);
