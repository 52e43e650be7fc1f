// Loupe's pack indexer against `git index-pack` as the oracle: for packs that `git pack-objects`
// writes (whole objects, OFS_DELTA and REF_DELTA chains) the `.idx` is byte-for-byte git's; a
// thin pack indexes against the store's objects with every entry where git puts it; damage is an
// error, never a wrong index.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "@jest/globals";
import { CorruptObjectStoreError, type GitObject } from "../../../src/workspace/objects/git-object.ts";
import { indexPack } from "../../../src/workspace/objects/index-pack.ts";
import { createObjectDatabase } from "../../../src/workspace/objects/object-database.ts";
import { bufferPackSource, filePackSource } from "../../../src/workspace/objects/pack-source.ts";
import { createRepo, type FixtureRepo, gitEnvironment } from "../../support/git-fixture.ts";
import { historyRepo as createHistoryRepo, gitBuffer } from "../../support/history-repo.ts";

const repos: FixtureRepo[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.dispose();
});

function historyRepo(commits = 10): FixtureRepo {
  const repo = createHistoryRepo(commits);
  repos.push(repo);
  return repo;
}

const git = gitBuffer;

/** `git pack-objects` over the given revisions: the pack and git's own index for it. */
function gitPack(repo: FixtureRepo, revs: string, flags: string[]): { pack: Buffer; idx: Buffer } {
  const dir = fs.mkdtempSync(path.join(repo.home, "pack-"));
  const name = git(repo, ["pack-objects", "--revs", ...flags, path.join(dir, "p")], `${revs}\n`)
    .toString()
    .trim();
  return {
    pack: fs.readFileSync(path.join(dir, `p-${name}.pack`)),
    idx: fs.readFileSync(path.join(dir, `p-${name}.idx`)),
  };
}

const noExternal = async (): Promise<GitObject | undefined> => undefined;

/** Entries of an index as `git show-index` prints them: "offset oid (crc)". */
function showIndex(repo: FixtureRepo, idx: Buffer): string[] {
  return git(repo, ["show-index"], idx).toString().trim().split("\n").sort();
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("indexPack against git index-pack", () => {
  it.each([
    ["OFS_DELTA chains", ["--delta-base-offset"]],
    ["REF_DELTA chains", []],
    ["no deltas at all", ["--depth=0"]],
  ])("writes git's own .idx, byte for byte, for a pack with %s", async (_what, flags) => {
    const repo = historyRepo();
    const { pack, idx } = gitPack(repo, "HEAD", flags);
    const indexed = await indexPack({ source: bufferPackSource(pack), readExternal: noExternal });
    expect(indexed.index.equals(idx)).toBe(true);
    expect(indexed.checksum).toBe(pack.subarray(-20).toString("hex"));
    expect(indexed.objectCount).toBe(pack.readUInt32BE(8));
  });

  it.each([256, 4096])(
    "reads a pack file through a reused %i-byte window and still writes git's .idx",
    async (windowBytes) => {
      const repo = historyRepo();
      const { pack, idx } = gitPack(repo, "HEAD", ["--delta-base-offset"]);
      const file = path.join(repo.home, "walked.pack");
      fs.writeFileSync(file, pack);
      const fd = fs.openSync(file, "r");
      try {
        const indexed = await indexPack({
          source: filePackSource(fd),
          readExternal: noExternal,
          windowBytes,
        });
        expect(indexed.index.equals(idx)).toBe(true);
      } finally {
        fs.closeSync(fd);
      }
    },
  );

  it("streams an object too large to hold (24 MiB of one byte) and still writes git's .idx", async () => {
    const repo = createRepo();
    repos.push(repo);
    repo.write("small.txt", "small\n");
    repo.write("zeros.bin", Buffer.alloc(24 * 1024 * 1024, 0));
    repo.write("after.txt", "an entry after the big one\n");
    repo.commit("big");
    const { pack, idx } = gitPack(repo, "HEAD", []);
    expect(pack.byteLength).toBeLessThan(1024 * 1024); // it packs small
    const file = path.join(repo.home, "big.pack");
    fs.writeFileSync(file, pack);
    const fd = fs.openSync(file, "r");
    try {
      const indexed = await indexPack({ source: filePackSource(fd), readExternal: noExternal });
      expect(indexed.index.equals(idx)).toBe(true);
    } finally {
      fs.closeSync(fd);
    }
  });

  it("indexes a thin pack against the objects the store already holds", async () => {
    const repo = historyRepo(12);
    const base = git(repo, ["rev-parse", "HEAD~6"]).toString().trim();
    const thin = git(
      repo,
      ["pack-objects", "--revs", "--thin", "--stdout", "--delta-base-offset"],
      `HEAD\n^${base}\n`,
    );
    // The store: a pack of everything the base has, as the first fetch leaves it.
    const store = createRepo({ bare: true });
    repos.push(store);
    const first = gitPack(repo, base, ["--delta-base-offset"]);
    const packDir = path.join(store.dir, "objects", "pack");
    fs.writeFileSync(path.join(packDir, "pack-first.pack"), first.pack);
    fs.writeFileSync(path.join(packDir, "pack-first.idx"), first.idx);
    const database = createObjectDatabase({ gitdir: store.dir });
    const external: string[] = [];
    const indexed = await indexPack({
      source: bufferPackSource(thin),
      readExternal: (oid) => {
        external.push(oid);
        return database.readObject(oid);
      },
    });
    database.close();
    expect(external.length).toBeGreaterThan(0); // it really was thin
    // git index-pack --fix-thin appends the missing bases; every entry of the thin pack keeps
    // its offset and CRC, so ours must be exactly git's entries minus the appended ones.
    const fixedDir = fs.mkdtempSync(path.join(repo.home, "fixed-"));
    fs.writeFileSync(path.join(fixedDir, "thin.pack"), thin);
    execFileSync("git", ["index-pack", "--fix-thin", "--stdin", path.join(fixedDir, "fixed.pack")], {
      cwd: repo.dir,
      env: gitEnvironment(repo.home),
      input: thin,
    });
    const ours = showIndex(repo, indexed.index);
    const theirs = showIndex(repo, fs.readFileSync(path.join(fixedDir, "fixed.idx")));
    expect(ours).toHaveLength(indexed.objectCount);
    expect(theirs.filter((line) => !ours.includes(line))).toHaveLength(theirs.length - ours.length);
    expect(ours.every((line) => theirs.includes(line))).toBe(true);
  });
});

describe("indexPack refuses damage", () => {
  it.each([
    [
      "a flipped byte",
      (pack: Buffer) =>
        Buffer.concat([pack.subarray(0, 40), Buffer.from([pack[40]! ^ 1]), pack.subarray(41)]),
      "checksum",
    ],
    ["a truncated pack", (pack: Buffer) => pack.subarray(0, pack.byteLength - 100), "checksum"],
    ["not a pack", () => Buffer.from("PACX0000000000000000000000000000000000"), "not a pack file"],
    [
      // Its checksum is right: only the count lies, and it must not size the indexer's tables.
      "a count of entries its bytes cannot hold",
      () => {
        const body = Buffer.concat([
          Buffer.from("PACK\0\0\0\x02\xff\xff\xff\xff", "latin1"),
          Buffer.alloc(30),
        ]);
        return Buffer.concat([body, createHash("sha1").update(body).digest()]);
      },
      "declares 4294967295 entries",
    ],
  ])("%s", async (_what, damage, message) => {
    const repo = historyRepo(3);
    const { pack } = gitPack(repo, "HEAD", ["--delta-base-offset"]);
    const error = await rejection(
      indexPack({ source: bufferPackSource(damage(pack)), readExternal: noExternal }),
    );
    expect(error).toBeInstanceOf(CorruptObjectStoreError);
    expect(error.message).toContain(message);
  });

  it("a thin pack whose bases the store lacks", async () => {
    const repo = historyRepo(6);
    const thin = git(repo, ["pack-objects", "--revs", "--thin", "--stdout"], "HEAD\n^HEAD~3\n");
    const error = await rejection(indexPack({ source: bufferPackSource(thin), readExternal: noExternal }));
    expect(error).toBeInstanceOf(CorruptObjectStoreError);
    expect(error.message).toContain("neither in the pack nor in the store");
  });
});
