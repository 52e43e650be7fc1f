// Installing received packs: a pack written through `receive()` becomes pack-<checksum>.pack +
// .idx that the object database reads; an empty pack leaves nothing; a damaged one is a clear
// git_network_failed naming the fetch, and leaves nothing behind.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "@jest/globals";
import { createIncomingPacks } from "../../../src/workspace/incoming-packs.ts";
import { createObjectDatabase } from "../../../src/workspace/objects/object-database.ts";
import { EMPTY_PACK_LINE } from "../../../src/workspace/pack-diverter.ts";
import { createRepo, type FixtureRepo, gitEnvironment } from "../../support/git-fixture.ts";
import { loupeRejection } from "../../support/loupe-rejection.ts";

const repos: FixtureRepo[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.dispose();
});

function setup() {
  const source = createRepo();
  const store = createRepo({ bare: true });
  repos.push(source, store);
  for (let n = 0; n < 5; n += 1) {
    source.write("a.txt", `version ${n}\n`.repeat(100));
    source.commit(`c${n}`);
  }
  const pack = execFileSync("git", ["-C", source.dir, "pack-objects", "--revs", "--stdout"], {
    env: gitEnvironment(source.home),
    input: "HEAD\n",
  });
  const database = createObjectDatabase({ gitdir: store.dir });
  const packs = createIncomingPacks({ gitdir: store.dir, database });
  const packDir = path.join(store.dir, "objects", "pack");
  return { source, pack, database, packs, packDir };
}

async function receive(packs: ReturnType<typeof createIncomingPacks>, bytes: Buffer): Promise<void> {
  const sink = await packs.receive();
  await sink.write(bytes.subarray(0, 100));
  await sink.write(bytes.subarray(100));
  await sink.close();
}

describe("incoming packs", () => {
  it("installs a received pack under its checksum, readable by the object database", async () => {
    const { source, pack, database, packs, packDir } = setup();
    await receive(packs, pack);
    await packs.install("the head commit");
    const checksum = pack.subarray(-20).toString("hex");
    expect(fs.readdirSync(packDir).sort()).toEqual([`pack-${checksum}.idx`, `pack-${checksum}.pack`]);
    const head = source.git("rev-parse", "HEAD").trim();
    expect((await database.readObject(head))?.type).toBe("commit");
    database.close();
  });

  it("leaves nothing for an empty pack", async () => {
    const { packs, packDir, database } = setup();
    await receive(packs, EMPTY_PACK_LINE.subarray(5));
    await packs.install("the head commit");
    expect(fs.readdirSync(packDir)).toEqual([]);
    database.close();
  });

  it("turns a damaged pack into git_network_failed naming the fetch, and removes it", async () => {
    const { pack, packs, packDir, database } = setup();
    const damaged = Buffer.from(pack);
    damaged[damaged.byteLength - 30]! ^= 0xff;
    await receive(packs, damaged);
    const error = await loupeRejection(packs.install("the merge-base commit abc"));
    expect(error.code).toBe("git_network_failed");
    expect(error.message).toContain("damaged pack for the merge-base commit abc");
    expect(fs.readdirSync(packDir)).toEqual([]);
    database.close();
  });
});
