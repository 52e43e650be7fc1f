// When the object database may skip hashing an object, and when it must not. Packs Loupe indexed
// itself (every object hashed then) are trusted; a pack index written by anyone else, and any
// object whose delta chain reaches outside the trusted packs, is hashed against the id asked for.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { deflateSync, inflateSync } from "node:zlib";
import { afterEach, describe, expect, it } from "@jest/globals";
import { createIncomingPacks } from "../../../src/workspace/incoming-packs.ts";
import { CorruptObjectStoreError } from "../../../src/workspace/objects/git-object.ts";
import { createObjectDatabase } from "../../../src/workspace/objects/object-database.ts";
import { writePackIndex } from "../../../src/workspace/objects/pack-index-writer.ts";
import { createRepo, type FixtureRepo, gitEnvironment } from "../../support/git-fixture.ts";
import { historyRepo as createHistoryRepo, gitBuffer } from "../../support/history-repo.ts";

const repos: FixtureRepo[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.dispose();
});

function track(repo: FixtureRepo): FixtureRepo {
  repos.push(repo);
  return repo;
}

/** A hostile index for the repository's one pack: `remap` says which entry each id points at. */
function rewriteIndex(repo: FixtureRepo, remap: (oid: string, offsets: Map<string, number>) => number) {
  const packDir = path.join(repo.dir, ".git", "objects", "pack");
  const idx = path.join(packDir, fs.readdirSync(packDir).find((name) => name.endsWith(".idx"))!);
  const offsets = new Map<string, number>();
  const crcs = new Map<string, number>();
  for (const line of gitBuffer(repo, ["show-index"], fs.readFileSync(idx)).toString().trim().split("\n")) {
    const [offset, oid, crc] = line.split(" ");
    offsets.set(oid!, Number(offset));
    crcs.set(oid!, Number.parseInt(crc!.slice(1, -1), 16));
  }
  const checksum = Buffer.from(fs.readFileSync(idx).subarray(-40, -20));
  const objects = [...offsets.keys()].map((oid) => ({
    oid,
    offset: remap(oid, offsets),
    crc: crcs.get(oid)!,
  }));
  fs.chmodSync(idx, 0o644);
  fs.writeFileSync(idx, writePackIndex(objects, checksum));
}

describe("a pack index Loupe did not write is not trusted", () => {
  function packedRepo() {
    const repo = track(createRepo());
    repo.write("a.txt", "the first file\n");
    repo.write("b.txt", "the second file\n");
    repo.commit("two files");
    repo.git("repack", "-a", "-d", "-q");
    repo.git("prune-packed");
    return { repo, a: repo.revParse("HEAD:a.txt"), b: repo.revParse("HEAD:b.txt") };
  }

  it("refuses an id that the index points at another object's entry", async () => {
    const { repo, a, b } = packedRepo();
    rewriteIndex(repo, (oid, offsets) => offsets.get(oid === a ? b : oid === b ? a : oid)!);
    const database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
    await expect(database.readObject(a)).rejects.toThrow(/does not hash to its id/);
    await expect(database.readObject(b)).rejects.toThrow(/does not hash to its id/);
    database.close();
  });

  it("remembers a hash for the id it proved, not for every id that reaches the same bytes", async () => {
    const { repo, a, b } = packedRepo();
    rewriteIndex(repo, (oid, offsets) => offsets.get(oid === a ? b : oid)!);
    const database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
    const real = await database.readObject(b); // hashed and cached
    expect(Buffer.from(real!.bytes).toString()).toBe("the second file\n");
    await expect(database.readObject(a)).rejects.toThrow(/does not hash to its id/); // a cache hit
    await expect(database.readObject(b)).resolves.toEqual(real);
    database.close();
  });
});

describe("a pack Loupe indexed is trusted only as far as its own objects reach", () => {
  /**
   * The history's last commit as a thin pack, installed into the history's own store, whose
   * objects it then no longer holds loose. Native git reads no thin pack in a store: everything
   * it answers is asked first.
   */
  async function installThinHead() {
    const repo = track(createHistoryRepo(6)); // objects loose, as after commits
    const blobs = (revision: string) =>
      repo.git("ls-tree", "-r", "--format=%(objectname)", revision).trim().split("\n");
    const headBlob = repo.revParse("HEAD:big.txt");
    const fixture = {
      repo,
      headBlob,
      expected: gitBuffer(repo, ["cat-file", "blob", headBlob]),
      headBlobs: new Set(blobs("HEAD")),
      parentBlobs: blobs("HEAD~1"),
    };
    const thin = execFileSync("git", ["-C", repo.dir, "pack-objects", "--revs", "--thin", "--stdout"], {
      env: gitEnvironment(repo.home),
      input: "HEAD\n^HEAD~1\n",
    });
    const gitdir = path.join(repo.dir, ".git");
    for (const line of repo.git("rev-list", "--objects", "HEAD", "^HEAD~1").trim().split("\n")) {
      const oid = line.slice(0, 40);
      fs.rmSync(path.join(gitdir, "objects", oid.slice(0, 2), oid.slice(2)), { force: true });
    }
    const database = createObjectDatabase({ gitdir });
    const packs = createIncomingPacks({ gitdir, database });
    const sink = await packs.receive();
    await sink.write(thin);
    await sink.close();
    await packs.install("the head commit");
    return { ...fixture, database, gitdir };
  }

  it("reads objects whose delta bases are loose, checked against their ids", async () => {
    const { database, headBlob, expected } = await installThinHead();
    expect(Buffer.from((await database.readObject(headBlob))!.bytes).equals(expected)).toBe(true);
    database.close();
  });

  it("refuses an object of a trusted pack whose loose delta base was altered", async () => {
    const { database, gitdir, headBlob, headBlobs, parentBlobs } = await installThinHead();
    // The thin pack's delta bases are the previous commit's blobs, loose here: replace each one
    // the head does not share with as many different bytes.
    for (const base of parentBlobs.filter((oid) => !headBlobs.has(oid))) {
      const file = path.join(gitdir, "objects", base.slice(0, 2), base.slice(2));
      const raw = inflateSync(fs.readFileSync(file));
      const nul = raw.indexOf(0);
      const altered = Buffer.from(raw.subarray(nul + 1).map((byte) => byte ^ 0x20));
      fs.chmodSync(file, 0o644);
      fs.writeFileSync(file, deflateSync(Buffer.concat([raw.subarray(0, nul + 1), altered])));
    }
    const read = database.readObject(headBlob);
    await expect(read).rejects.toBeInstanceOf(CorruptObjectStoreError);
    await expect(read).rejects.toThrow(/does not hash to its id/);
    database.close();
  });
});
