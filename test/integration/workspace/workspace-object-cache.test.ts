// The object database's cache of resolved objects under pressure, on packs native git made: delta
// chains far longer than the cache holds still resolve to git's bytes, the cache never holds more
// than its budget, and entries of every size (past the reused read buffer too) read back whole.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "@jest/globals";
import { createObjectDatabase } from "../../../src/workspace/objects/object-database.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { chainRepo, gitBuffer, oracleObjects } from "../../support/history-repo.ts";

const repos: FixtureRepo[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.dispose();
});

/** The delta chain lengths `git verify-pack -v` reports for the repository's packs. */
function chainLengths(repo: FixtureRepo): number[] {
  const dir = path.join(repo.dir, ".git", "objects", "pack");
  const indexes = fs.readdirSync(dir).filter((name) => name.endsWith(".idx"));
  const listing = gitBuffer(repo, ["verify-pack", "-v", ...indexes.map((name) => path.join(dir, name))]);
  return [...listing.toString().matchAll(/^chain length = (\d+):/gm)].map((match) => Number(match[1]));
}

describe("the cache of resolved objects", () => {
  it("resolves delta chains longer than the cache holds, and never holds more than its budget", async () => {
    const repo = chainRepo(60);
    repos.push(repo);
    repo.git("repack", "-a", "-d", "-q", "--depth=50", "--window=50");
    repo.git("prune-packed");
    expect(Math.max(...chainLengths(repo))).toBeGreaterThanOrEqual(30);
    const objects = oracleObjects(repo);
    // Each version is about 20 KB: a 128 KiB budget keeps at most six of them, against chains
    // of 30 deltas and more.
    const budget = 128 * 1024;
    const database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git"), cacheBytes: budget });
    let peak = 0;
    try {
      // Twice, newest last then newest first: the second pass meets a cache the first one filled.
      for (const order of [objects, [...objects].reverse()]) {
        for (const expected of order) {
          const actual = await database.readObject(expected.oid);
          expect(actual?.type).toBe(expected.type);
          expect(Buffer.from(actual!.bytes).equals(expected.bytes)).toBe(true);
          peak = Math.max(peak, database.cachedBytes);
        }
      }
    } finally {
      database.close();
    }
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(budget);
  });

  it("reads entries larger than the reused read buffer and than one output piece of zlib", async () => {
    const repo = createRepo();
    repos.push(repo);
    repo.write("small.txt", "small\n");
    repo.write("medium.bin", randomBytes(100 * 1024)); // past the first read of an entry
    repo.write("large.bin", randomBytes(2 * 1024 * 1024)); // past the reused read buffer
    repo.write("huge.txt", "0123456789abcdef\n".repeat(400_000)); // 6.8 MB: several output pieces
    repo.commit("sizes");
    repo.git("repack", "-a", "-d", "-q");
    repo.git("prune-packed");
    const database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
    try {
      for (const expected of oracleObjects(repo)) {
        const actual = await database.readObject(expected.oid);
        expect(Buffer.from(actual!.bytes).equals(expected.bytes)).toBe(true);
      }
    } finally {
      database.close();
    }
  });
});
