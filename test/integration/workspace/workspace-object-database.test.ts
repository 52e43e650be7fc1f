// Loupe's object database against native git as the oracle: every object of real repositories
// (loose, packed whole, OFS_DELTA and REF_DELTA chains, 64-bit index offsets) reads back
// byte-for-byte as `git cat-file --batch` prints it, and its size read from headers alone is
// git's; damage is an error, never wrong bytes.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { CorruptObjectStoreError } from "../../../src/workspace/objects/git-object.ts";
import { createObjectDatabase } from "../../../src/workspace/objects/object-database.ts";
import { openPackFile } from "../../../src/workspace/objects/pack-file.ts";
import { openLocalRepository } from "../../../src/workspace/open-local.ts";
import { createRepo, type FixtureRepo, gitEnvironment } from "../../support/git-fixture.ts";
import { historyRepo as createHistoryRepo, gitBuffer, oracleObjects } from "../../support/history-repo.ts";
import { seededRandom } from "../../support/seeded-random.ts";

const repos: FixtureRepo[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.dispose();
});

function historyRepo(commits = 12): FixtureRepo {
  const repo = createHistoryRepo(commits);
  repos.push(repo);
  return repo;
}

async function expectSameAsGit(repo: FixtureRepo): Promise<number> {
  const database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
  const bounded = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
  const objects = oracleObjects(repo);
  try {
    for (const expected of objects) {
      // A bounded read one byte short says "too large" with git's size, from headers alone.
      const size = expected.bytes.byteLength;
      if (size > 0)
        expect(await bounded.readObjectWithin(expected.oid, size - 1)).toEqual({ tooLarge: size });
      expect((await bounded.readObjectWithin(expected.oid, size)) as { type?: string }).toMatchObject({
        type: expected.type,
      });
      const actual = await database.readObject(expected.oid);
      expect(actual?.type).toBe(expected.type);
      expect(Buffer.from(actual!.bytes).equals(expected.bytes)).toBe(true);
    }
  } finally {
    database.close();
    bounded.close();
  }
  return objects.length;
}

function packFiles(repo: FixtureRepo): { pack: string; idx: string } {
  const dir = path.join(repo.dir, ".git", "objects", "pack");
  const pack = fs.readdirSync(dir).find((name) => name.endsWith(".pack"))!;
  return { pack: path.join(dir, pack), idx: path.join(dir, pack.replace(/\.pack$/, ".idx")) };
}

/** How many entries of each kind the pack holds, read at the offsets `git verify-pack -v` lists. */
function entryKinds(repo: FixtureRepo): Record<string, number> {
  const { pack, idx } = packFiles(repo);
  const file = openPackFile(pack, idx, "test.pack")!;
  const kinds: Record<string, number> = {};
  for (const line of gitBuffer(repo, ["verify-pack", "-v", idx]).toString().split("\n")) {
    const offset = /^[0-9a-f]{40} \w+ +\d+ \d+ (\d+)/.exec(line)?.[1];
    if (offset === undefined) continue;
    const { kind } = file.readEntry(Number(offset));
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  file.close();
  return kinds;
}

describe("object database vs git cat-file", () => {
  it("reads loose objects", async () => {
    const repo = historyRepo(3);
    expect(
      fs.readdirSync(path.join(repo.dir, ".git", "objects")).some((name) => /^[0-9a-f]{2}$/.test(name)),
    ).toBe(true);
    expect(await expectSameAsGit(repo)).toBeGreaterThan(10);
  });

  it("reads a packed store with OFS_DELTA chains", async () => {
    const repo = historyRepo();
    repo.git("repack", "-a", "-d", "-q", "--depth=50", "--window=50");
    repo.git("prune-packed");
    expect(entryKinds(repo)).toMatchObject({ ofs_delta: expect.any(Number) });
    expect(entryKinds(repo).ref_delta).toBeUndefined();
    await expectSameAsGit(repo);
  });

  it("reads REF_DELTA chains", async () => {
    const repo = historyRepo();
    repo.git(
      "-c",
      "repack.useDeltaBaseOffset=false",
      "repack",
      "-a",
      "-d",
      "-q",
      "--depth=50",
      "--window=50",
    );
    repo.git("prune-packed");
    expect(entryKinds(repo)).toMatchObject({ ref_delta: expect.any(Number) });
    expect(entryKinds(repo).ofs_delta).toBeUndefined();
    await expectSameAsGit(repo);
  });

  it("reads an index whose offsets are all in the 64-bit table", async () => {
    const repo = historyRepo(4);
    repo.git("repack", "-a", "-d", "-q");
    const { pack, idx } = packFiles(repo);
    fs.rmSync(idx);
    // Every offset above 0x20 goes to the large-offset table.
    gitBuffer(repo, ["index-pack", "--index-version=2,0x20", "-o", idx, pack]);
    await expectSameAsGit(repo);
  });

  it("reads a store with several packs and loose objects side by side", async () => {
    const repo = historyRepo(4);
    repo.git("repack", "-a", "-d", "-q");
    repo.write("later.txt", "after the first pack\n");
    repo.commit("later");
    repo.git("repack", "-d", "-q");
    repo.write("loose.txt", "still loose\n");
    repo.commit("loose");
    await expectSameAsGit(repo);
  });

  it("reads a pack many times its read windows' size, in an order unrelated to the pack's", async () => {
    // Incompressible files of sizes around the 64 KiB windows the pack is read through: entries
    // that start in one window and end past it, entries larger than a window, small ones between,
    // and a large file edited a little each commit (small deltas on a base larger than a window).
    // expectSameAsGit reads by id, which jumps about the pack; every byte must still be git's.
    const repo = createRepo();
    repos.push(repo);
    const random = seededRandom(43);
    const noise = (size: number) =>
      Buffer.from(Array.from({ length: size }, () => Math.floor(random() * 256)));
    const large = noise(150_000);
    for (let n = 0; n < 6; n += 1) {
      for (let file = 0; file < 8; file += 1) {
        repo.write(`noise-${n}-${file}.bin`, noise([200, 9_000, 40_000, 70_000][(n + file) % 4]!));
      }
      large.write(`edit ${n}`, (n * 20_011) % 149_000);
      repo.write("large.bin", large);
      repo.commit(`commit ${n}`);
    }
    repo.git("repack", "-a", "-d", "-q");
    repo.git("prune-packed");
    expect(fs.statSync(packFiles(repo).pack).size).toBeGreaterThan(16 * 64 * 1024);
    expect(entryKinds(repo)).toMatchObject({ ofs_delta: expect.any(Number) });
    await expectSameAsGit(repo);
  });

  it("hands an index version it does not read to the fallback", async () => {
    const repo = historyRepo(2);
    repo.git("repack", "-a", "-d", "-q");
    const { pack, idx } = packFiles(repo);
    fs.rmSync(idx);
    gitBuffer(repo, ["index-pack", "--index-version=1", "-o", idx, pack]);
    const [one] = oracleObjects(repo);
    const fallback = jest.fn(async (_oid: string) => ({ type: one!.type as "blob", bytes: one!.bytes }));
    const database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git"), fallback });
    await expect(database.readObject(one!.oid)).resolves.toMatchObject({ type: one!.type });
    expect(fallback).toHaveBeenCalledWith(one!.oid);
    database.close();
  });

  it("answers undefined for an object the store does not have", async () => {
    const repo = historyRepo(1);
    repo.git("repack", "-a", "-d", "-q");
    const database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
    await expect(database.readObject("0123456789".repeat(4))).resolves.toBeUndefined();
    database.close();
  });
});

describe("a damaged store is an error, never wrong bytes", () => {
  function packedRepo(): { repo: FixtureRepo; blob: string } {
    const repo = createRepo();
    repos.push(repo);
    repo.write("a.txt", "x".repeat(5000));
    repo.commit("one");
    const blob = repo.revParse("HEAD:a.txt");
    repo.git("repack", "-a", "-d", "-q");
    repo.git("prune-packed");
    return { repo, blob };
  }

  it("rejects a pack whose entry bytes were flipped", async () => {
    const { repo, blob } = packedRepo();
    const { pack, idx } = packFiles(repo);
    const offset = Number(
      gitBuffer(repo, ["verify-pack", "-v", idx])
        .toString()
        .split("\n")
        .find((line) => line.startsWith(blob))!
        .split(/ +/)[4],
    );
    const bytes = fs.readFileSync(pack);
    bytes[offset + 6] = bytes[offset + 6]! ^ 0xff;
    fs.writeFileSync(pack, bytes);
    const database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
    await expect(database.readObject(blob)).rejects.toBeInstanceOf(CorruptObjectStoreError);
    database.close();
  });

  it("rejects a pack that does not match its index", async () => {
    const { repo, blob } = packedRepo();
    const { pack } = packFiles(repo);
    const bytes = fs.readFileSync(pack);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    fs.writeFileSync(pack, bytes);
    const database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
    await expect(database.readObject(blob)).rejects.toThrow(/does not match its index/);
    database.close();
  });

  it("rejects a truncated pack index", async () => {
    const { repo, blob } = packedRepo();
    const { idx } = packFiles(repo);
    fs.chmodSync(idx, 0o644);
    fs.truncateSync(idx, 1100);
    const database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
    await expect(database.readObject(blob)).rejects.toThrow(/truncated/);
    database.close();
  });

  it("rejects a loose object whose content does not hash to its id", async () => {
    const repo = createRepo();
    repos.push(repo);
    repo.write("a.txt", "original\n");
    repo.commit("one");
    const blob = repo.revParse("HEAD:a.txt");
    const other = repo.revParse("HEAD");
    const objects = path.join(repo.dir, ".git", "objects");
    const target = path.join(objects, blob.slice(0, 2), blob.slice(2));
    fs.chmodSync(target, 0o644);
    fs.copyFileSync(path.join(objects, other.slice(0, 2), other.slice(2)), target);
    const database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
    await expect(database.readObject(blob)).rejects.toThrow(/does not hash to its id/);
    database.close();
  });
});

describe("snapshots of hostile trees", () => {
  it("hides .git entries and reads old modes as git does, where isomorphic-git would throw", async () => {
    const repo = createRepo();
    repos.push(repo);
    repo.write("a.txt", "a\n");
    repo.commit("base");
    const blob = repo.revParse("HEAD:a.txt");
    const entry = (mode: string, name: string) =>
      Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(blob, "hex")]);
    // Entries in git's tree order; written with --literally because git's own fsck refuses them.
    const raw = Buffer.concat([
      entry("100644", ".git"),
      entry("100664", "old-mode.txt"),
      entry("100644", "z.txt"),
    ]);
    const tree = execFileSync(
      "git",
      ["-C", repo.dir, "hash-object", "-t", "tree", "-w", "--literally", "--stdin"],
      {
        env: gitEnvironment(repo.home),
        input: raw,
      },
    )
      .toString()
      .trim();
    const commit = repo.git("commit-tree", tree, "-p", "HEAD", "-m", "hostile");
    const workspace = await openLocalRepository({ dir: repo.dir, base: "HEAD", head: commit });
    expect(workspace.head.entries.map(({ path: p, mode }) => [p, mode])).toEqual([
      ["old-mode.txt", "file"],
      ["z.txt", "file"],
    ]);
    expect(Buffer.from(await workspace.objects.readBlob(blob)).toString()).toBe("a\n");
    await workspace.dispose();
  });

  it("reports a missing blob as a damaged repository", async () => {
    const repo = createRepo();
    repos.push(repo);
    repo.write("a.txt", "a\n");
    repo.commit("base");
    const workspace = await openLocalRepository({ dir: repo.dir, base: "HEAD", head: "HEAD" });
    await expect(workspace.objects.readBlob("0123456789".repeat(4))).rejects.toMatchObject({
      code: "git_repository_invalid",
    });
    await workspace.dispose();
  });
});
