// Ref names read without isomorphic-git's packed-refs parse (src/workspace/direct-ref.ts), against
// `git rev-parse` on the same repository: packed and loose refs, a loose ref shadowing its packed
// line, git's order of expansions, an annotated tag (its own id, peeled later), and the names it
// leaves to the fallback (symbolic refs, paths leaving the gitdir).

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { resolveDirectRef } from "../../../src/workspace/direct-ref.ts";
import { resolveRevision } from "../../../src/workspace/resolve-revision.ts";
import { createObjectStore } from "../../../src/workspace/snapshot.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";

let repo: FixtureRepo;
let first: string;
let second: string;
let gitdir: string;

beforeAll(() => {
  repo = createRepo();
  repo.write("a.txt", "one\n");
  first = repo.commit("first");
  repo.tag("v1", { annotated: true });
  repo.tag("light");
  repo.git("branch", "topic");
  repo.git("branch", "same-name"); // a branch and a tag of one name: refs/tags/ comes first
  repo.write("a.txt", "two\n");
  second = repo.commit("second");
  repo.git("tag", "same-name");
  repo.git("pack-refs", "--all");
  // After packing: a loose ref that moved on shadows its packed line.
  repo.git("update-ref", "refs/heads/topic", second);
  repo.git("symbolic-ref", "refs/heads/alias", "refs/heads/main");
  gitdir = repo.git("rev-parse", "--absolute-git-dir");
});

afterAll(() => repo.dispose());

describe("resolveDirectRef", () => {
  it.each([
    "main",
    "topic",
    "refs/heads/topic",
    "v1",
    "refs/tags/v1",
    "light",
    "same-name",
    "heads/main",
    "tags/light",
  ])("answers %s as git rev-parse does", async (name) => {
    expect(await resolveDirectRef(gitdir, name)).toBe(repo.git("rev-parse", name));
  });

  it("reads the packed line when no loose file shadows it", () => {
    expect(repo.git("rev-parse", "light")).toBe(first);
  });

  it.each(["alias", "no-such-ref", "../HEAD", "refs/../HEAD", "heads//main", "HEAD"])(
    "leaves %s to the fallback",
    async (name) => {
      expect(await resolveDirectRef(gitdir, name)).toBeUndefined();
    },
  );

  it("still resolves what it leaves to the fallback, through resolveRevision", async () => {
    const store = createObjectStore(gitdir);
    try {
      expect(await resolveRevision(store, "alias")).toBe(second);
      expect(await resolveRevision(store, "HEAD")).toBe(second);
      expect(await resolveRevision(store, "v1")).toBe(first);
    } finally {
      store.database.close();
    }
  });
});
