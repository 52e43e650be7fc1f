import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { LoupeError } from "../../../src/domain/errors.ts";
import { openRepository } from "../../../src/forges/local/open-repository.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { type GitHttpServer, startGitHttpServer } from "../../support/git-http-server.ts";
import { publishRepository } from "../../support/git-server-repos.ts";

const TOKEN = "ghs_clitoken000000000000000";
let repo: FixtureRepo;
let server: GitHttpServer;
let base: string;
let head: string;
let fork: string;

beforeAll(async () => {
  repo = createRepo();
  repo.write("a.txt", "a\n");
  fork = repo.commit("fork point");
  repo.branch("topic");
  repo.write("b.txt", "b\n");
  head = repo.commit("topic work");
  repo.checkout("main");
  repo.write("c.txt", "c\n");
  base = repo.commit("main moves");
  server = await startGitHttpServer({ requireToken: TOKEN });
  publishRepository(server.root, "o/r", repo);
});

afterAll(async () => {
  await server.stop();
  repo.dispose();
});

describe("openRepository", () => {
  it("opens a local directory with revision names", async () => {
    const workspace = await openRepository({ repo: repo.dir, base: "main", head: "topic", env: {} });
    expect([workspace.mergeBase.commit, workspace.head.commit]).toEqual([fork, head]);
    await workspace.dispose();
  });

  it("fetches a URL with LOUPE_GIT_TOKEN and finds the merge-base", async () => {
    const workspace = await openRepository({
      repo: server.url("o/r"),
      base,
      head,
      env: { LOUPE_GIT_TOKEN: TOKEN },
    });
    expect([workspace.mergeBase.commit, workspace.head.commit]).toEqual([fork, head]);
    expect(server.requests.every((r) => !r.url.includes(TOKEN))).toBe(true);
    await workspace.dispose();
  });

  it("fails authentication without the token", async () => {
    await expect(openRepository({ repo: server.url("o/r"), base, head, env: {} })).rejects.toMatchObject({
      code: "git_authentication_failed",
    });
  });

  it("refuses revision names with a URL, in one line", async () => {
    const error = await openRepository({ repo: server.url("o/r"), base: "main", head, env: {} }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(LoupeError);
    expect((error as LoupeError).code).toBe("usage_invalid");
    expect((error as LoupeError).message).not.toContain("\n");
  });
});
