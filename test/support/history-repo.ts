// Repositories whose files change a little each commit, so that packing them makes delta chains
// (OFS_DELTA or REF_DELTA), for the object-store tests that use native git as the oracle.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRepo, type FixtureRepo, gitEnvironment, importHistory } from "./git-fixture.ts";

/**
 * `commits` commits of a 400-line text, a smaller text per commit and a binary file, their
 * objects loose as commits leave them: imported by one `git fast-import`, whose pack is then
 * unpacked (four processes, where a commit at a time takes two a commit).
 */
export function historyRepo(commits: number): FixtureRepo {
  const repo = createRepo();
  const body = (n: number) =>
    Array.from(
      { length: 400 },
      (_, line) => `line ${line} ${line % 37 === n % 37 ? `edit ${n}` : ""}\n`,
    ).join("");
  const history = Array.from({ length: commits }, (_, n) => ({
    branch: "main",
    message: `commit ${n}`,
    files: {
      "big.txt": body(n),
      [`dir/file-${n % 3}.txt`]: `${body(n).slice(0, 2000)}${n}\n`,
      "bin.dat": Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * (n + 1)) % 256)),
    },
  }));
  importHistory(repo, history, null);
  const packs = path.join(repo.dir, ".git", "objects", "pack");
  for (const name of fs.readdirSync(packs).filter((file) => file.endsWith(".pack"))) {
    // Moved out first: git unpacks only the objects the store does not already hold.
    const pack = path.join(repo.home, name);
    fs.renameSync(path.join(packs, name), pack);
    fs.rmSync(path.join(packs, name.replace(/\.pack$/, ".idx")));
    gitBuffer(repo, ["unpack-objects", "-q"], fs.readFileSync(pack));
    fs.rmSync(pack);
  }
  repo.git("checkout", "--quiet", "--force", "main");
  return repo;
}

/**
 * `commits` versions of one 400-line file (about 20 KB), each changing one more line: every
 * version is closest to the one before it, so `git repack --depth=50` chains them end to end.
 */
export function chainRepo(commits: number): FixtureRepo {
  const repo = createRepo();
  const lines = Array.from(
    { length: 400 },
    (_, line) => `line ${line} of a file that changes one line a commit\n`,
  );
  // One fast-import for the whole history (already packed: the tests repack it as they need).
  const history = Array.from({ length: commits }, (_, n) => {
    const line = (n * 7) % lines.length;
    lines[line] = `line ${line} changed in commit ${n}\n`;
    return { branch: "main", message: `commit ${n}`, files: { "chain.txt": lines.join("") } };
  });
  importHistory(repo, history, "main");
  return repo;
}

/** Native git in the repository, with stdin; its stdout as bytes. */
export function gitBuffer(repo: FixtureRepo, args: string[], input?: string | Buffer): Buffer {
  return execFileSync("git", ["-C", repo.dir, ...args], {
    env: gitEnvironment(repo.home),
    input,
    maxBuffer: 1 << 28,
  });
}

export interface OracleObject {
  readonly oid: string;
  readonly type: string;
  readonly bytes: Buffer;
}

/** Every object in the store, as native git reads it. */
export function oracleObjects(repo: FixtureRepo): OracleObject[] {
  const oids = gitBuffer(repo, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname)"])
    .toString()
    .trim()
    .split("\n");
  const out = gitBuffer(repo, ["cat-file", "--batch"], `${oids.join("\n")}\n`);
  const objects: OracleObject[] = [];
  let at = 0;
  while (at < out.length) {
    const newline = out.indexOf(0x0a, at);
    const [oid, type, size] = out.toString("latin1", at, newline).split(" ");
    const start = newline + 1;
    objects.push({ oid: oid!, type: type!, bytes: out.subarray(start, start + Number(size)) });
    at = start + Number(size) + 1;
  }
  return objects;
}
