// A hostile repository for the isolation tests: every commit holds a directory of `entries` files
// (one blob under as many names), so reading a commit's tree makes hundreds of thousands of
// entries — seconds of work and well over a hundred megabytes of heap — while a pull request
// changes one small file beside it (GitHub lists one file; the tree is only met once fetched).
// The objects are written directly as loose objects (git mktree takes minutes for this many
// names); `main` is the base, `change` the pull request's branch.
//
//   const wide = createWideTreeRepo(400_000);
//   github.addRepository({ owner: "octo", repo: "wide", source: wide.repo });

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRepo, type FixtureRepo } from "./git-fixture.ts";

export interface WideTreeRepo {
  readonly repo: FixtureRepo;
  /** The branch of the pull request's head. */
  readonly headRef: string;
}

interface Entry {
  readonly mode: "100644" | "40000";
  readonly name: string;
  readonly oid: string;
}

/** `wideIn`: "both" commits (the change is one small file beside it), or the "head" alone (it adds them all). */
export function createWideTreeRepo(
  entries: number,
  lines = 30,
  wideIn: "both" | "head" = "both",
): WideTreeRepo {
  const repo = createRepo({ bare: true });
  const write = (type: string, body: Buffer): string => {
    const object = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
    const oid = createHash("sha1").update(object).digest("hex");
    const file = path.join(repo.dir, "objects", oid.slice(0, 2), oid.slice(2));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, zlib.deflateSync(object));
    return oid;
  };
  const blob = (text: string) => write("blob", Buffer.from(text));
  // Entries in git's order: byte order, a directory compared as its name followed by "/".
  const tree = (items: readonly Entry[]) => {
    const key = (e: Entry) => (e.mode === "40000" ? `${e.name}/` : e.name);
    const sorted = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    return write(
      "tree",
      Buffer.concat(sorted.flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.oid, "hex")])),
    );
  };
  const commit = (treeOid: string, parent: string | null, message: string) =>
    write(
      "commit",
      Buffer.from(
        `tree ${treeOid}\n${parent === null ? "" : `parent ${parent}\n`}` +
          "author Loupe Fixture <fixture@loupe.invalid> 1700000000 +0000\n" +
          `committer Loupe Fixture <fixture@loupe.invalid> 1700000000 +0000\n\n${message}\n`,
      ),
    );

  const same = blob("generated\n");
  const generated = tree(
    Array.from({ length: entries }, (_, n) => ({
      mode: "100644",
      name: `f${n.toString(36)}.txt`,
      oid: same,
    })),
  );
  const values = (changed: boolean) =>
    Array.from(
      { length: lines },
      (_, i) => `export const v${i + 1} = ${changed && i === 9 ? 100 : i + 1};\n`,
    ).join("");
  const root = (changed: boolean) =>
    tree([
      { mode: "100644", name: "README.md", oid: blob("# Wide\n") },
      ...(changed || wideIn === "both"
        ? [{ mode: "40000" as const, name: "generated", oid: generated }]
        : []),
      {
        mode: "40000",
        name: "src",
        oid: tree([{ mode: "100644", name: "values.ts", oid: blob(values(changed)) }]),
      },
    ]);
  const base = commit(root(false), null, "a wide tree");
  const head = commit(root(true), base, "v10 is 100");
  repo.git("update-ref", "refs/heads/main", base);
  repo.git("update-ref", "refs/heads/change", head);
  return { repo, headRef: "change" };
}
