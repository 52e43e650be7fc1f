// Repositories whose files change a little each commit, so that packing them makes delta chains
// (OFS_DELTA or REF_DELTA), for the object-store tests that use native git as the oracle.

import { execFileSync } from "node:child_process";
import { createRepo, type FixtureRepo, gitEnvironment } from "./git-fixture.ts";

/** `commits` commits of a 400-line text, a smaller text per commit and a binary file. */
export function historyRepo(commits: number): FixtureRepo {
  const repo = createRepo();
  const body = (n: number) =>
    Array.from(
      { length: 400 },
      (_, line) => `line ${line} ${line % 37 === n % 37 ? `edit ${n}` : ""}\n`,
    ).join("");
  for (let n = 0; n < commits; n += 1) {
    repo.write("big.txt", body(n));
    repo.write(`dir/file-${n % 3}.txt`, `${body(n).slice(0, 2000)}${n}\n`);
    repo.write("bin.dat", Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * (n + 1)) % 256)));
    repo.commit(`commit ${n}`);
  }
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
