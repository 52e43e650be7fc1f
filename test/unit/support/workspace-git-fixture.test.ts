import fs from "node:fs";
import { afterAll, describe, expect, it } from "@jest/globals";
import { createOneChangeRepo, createRepo, headCommit, importHistory } from "../../support/git-fixture.ts";

describe("git fixture", () => {
  const repo = createRepo();
  afterAll(() => repo.dispose());

  it("commits with the fixture identity and returns the SHA", () => {
    repo.write("a/b.txt", "hello\n");
    const sha = repo.commit("first");
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(repo.git("log", "-1", "--format=%an <%ae>")).toBe("Loupe Fixture <fixture@loupe.invalid>");
    expect(repo.git("show", `${sha}:a/b.txt`)).toBe("hello");
  });

  it("keeps the machine's global config out (private HOME)", () => {
    expect(fs.existsSync(`${repo.home}/.gitconfig`)).toBe(false);
    expect(repo.git("config", "--show-origin", "--get-all", "user.name")).toContain("command line");
  });

  it("tags, branches and records modes", () => {
    const tagId = repo.tag("v1", { annotated: true });
    expect(tagId).not.toBe(repo.revParse("HEAD"));
    expect(repo.revParse("v1^{commit}")).toBe(repo.revParse("HEAD"));
    repo.branch("feature");
    repo.write("run.sh", "#!/bin/sh\n");
    repo.chmod("run.sh", 0o755);
    repo.commit("script");
    expect(repo.git("ls-tree", "HEAD", "run.sh")).toMatch(/^100755 /);
    repo.dispose();
    expect(fs.existsSync(repo.dir)).toBe(false);
  });
});

describe("a history imported in one process", () => {
  it("commits each branch from where it starts, keeps the parent's files, and checks one out", () => {
    const repo = createRepo();
    const [base, feature, next, fix] = importHistory(
      repo,
      [
        { branch: "main", message: "base", files: { "a.txt": "a\n", "dir/b.txt": "b\n" } },
        { branch: "feature", from: "main", message: "feature", files: { "a.txt": "feature\n" } },
        { branch: "feature", message: "next", files: { "c.txt": "c\n" } },
        { branch: "fix", from: "feature", message: "fix", files: { "dir/b.txt": "fixed\n" } },
      ],
      "feature",
    );
    expect(repo.revParse("main")).toBe(base);
    expect(repo.revParse("feature")).toBe(next);
    expect(repo.revParse("fix")).toBe(fix);
    expect(repo.git("rev-list", "--parents", "-1", "fix")).toBe(`${fix} ${next}`);
    expect(repo.git("rev-list", "--parents", "-1", feature!)).toBe(`${feature} ${base}`);
    expect(repo.git("ls-tree", "-r", "--name-only", "fix")).toBe("a.txt\nc.txt\ndir/b.txt");
    expect(repo.git("show", "fix:dir/b.txt")).toBe("fixed");
    expect(repo.git("log", "-1", "--format=%an <%ae>|%cn|%s", "fix")).toBe(
      "Loupe Fixture <fixture@loupe.invalid>|Loupe Fixture|fix",
    );
    // The work tree and index are the checked-out branch's, clean.
    expect(repo.git("symbolic-ref", "HEAD")).toBe("refs/heads/feature");
    expect(fs.readFileSync(`${repo.dir}/a.txt`, "utf8")).toBe("feature\n");
    expect(repo.git("status", "--porcelain")).toBe("");
    repo.dispose();
  });

  it("commits executables and symbolic links, and a tree of a commit's files alone", () => {
    const repo = createRepo();
    const [first, second, third] = importHistory(
      repo,
      [
        {
          branch: "main",
          message: "first",
          files: {
            "a.txt": "a\r\n\0",
            "run.sh": { content: "echo\n", executable: true },
            link: { symlink: "a.txt" },
          },
        },
        { branch: "main", message: "second", replaceTree: true, files: { "b.txt": "" } },
        { branch: "main", message: "third", files: { "c.txt": "c\n" } },
      ],
      "main",
    );
    expect(repo.git("ls-tree", "-r", "--format=%(objectmode) %(path)", first!)).toBe(
      "100644 a.txt\n120000 link\n100755 run.sh",
    );
    expect(repo.git("cat-file", "-s", `${first}:a.txt`)).toBe("4"); // CR and NUL kept, byte for byte
    expect(repo.git("cat-file", "-p", `${first}:link`)).toBe("a.txt");
    expect(repo.git("ls-tree", "-r", "--name-only", second!)).toBe("b.txt");
    expect(repo.git("ls-tree", "-r", "--name-only", third!)).toBe("b.txt\nc.txt");
    repo.dispose();
  });

  it("gives the end-to-end repository: main and a branch per change, main checked out", () => {
    const repo = createOneChangeRepo([
      { branch: "change", a: 2 },
      { branch: "pushed", a: 3, from: "change" },
    ]);
    expect(repo.git("show", "main:src/a.ts")).toBe("export const a = 1;");
    expect(repo.git("show", "change:src/a.ts")).toBe("export const a = 2;");
    expect(repo.git("rev-parse", "pushed^")).toBe(repo.revParse("change"));
    expect(repo.git("rev-parse", "change^")).toBe(repo.revParse("main"));
    expect(repo.git("symbolic-ref", "HEAD")).toBe("refs/heads/main");
    expect(repo.git("status", "--porcelain")).toBe("");
    repo.write("src/a.ts", "export const a = 9;\n");
    expect(repo.commit("more")).toBe(repo.revParse("main"));
    repo.dispose();
  });
});

describe("the commit a fixture commit returns, read from the repository's files", () => {
  it("follows HEAD to a loose ref, to packed-refs, or is HEAD itself when detached", () => {
    const repo = createRepo();
    repo.write("a.txt", "a\n");
    const first = repo.commit("first");
    expect(first).toBe(repo.git("rev-parse", "HEAD"));
    repo.git("pack-refs", "--all");
    expect(fs.existsSync(`${repo.dir}/.git/refs/heads/main`)).toBe(false);
    expect(headCommit(repo.dir)).toBe(first);
    repo.checkout(first);
    repo.write("a.txt", "detached\n");
    const detached = repo.commit("detached");
    expect(repo.git("rev-parse", "HEAD")).toBe(detached);
    expect(detached).not.toBe(first);
    repo.dispose();
  });
});
