import fs from "node:fs";
import { afterAll, describe, expect, it } from "@jest/globals";
import { createRepo } from "../../support/git-fixture.ts";

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
