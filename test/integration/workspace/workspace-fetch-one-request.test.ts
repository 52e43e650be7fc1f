// A review's two commits come in one upload-pack request (the head's, wanting the merge-base too),
// and a refusal still names the commit it is about: the head is then fetched alone.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { fetchWorkspace } from "../../../src/workspace/fetch.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { type GitHttpServer, startGitHttpServer } from "../../support/git-http-server.ts";
import { createDanglingCommit, publishRepository } from "../../support/git-server-repos.ts";
import { loupeRejection } from "../../support/loupe-rejection.ts";

let source: FixtureRepo;
let server: GitHttpServer;
let tmpRoot: string;
const sha: Record<string, string> = {};

beforeAll(async () => {
  source = createRepo();
  for (let i = 0; i < 20; i += 1) source.write(`src/file-${i}.txt`, `line ${i}\n`.repeat(40));
  sha.base = source.commit("base");
  source.write("src/file-3.txt", "changed\n");
  source.remove("src/file-4.txt");
  sha.middle = source.commit("middle");
  source.write("NEW.md", "new\n");
  sha.head = source.commit("head");
  server = await startGitHttpServer();
  const bare = publishRepository(server.root, "owner/repo", source);
  sha.dangling = createDanglingCommit(bare, sha.base!, "no ref reaches this");
  tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-fetch-one-"));
});

afterAll(async () => {
  await server.stop();
  source.dispose();
  fs.rmSync(tmpRoot, { recursive: true, force: true });
});

const entries = (commit: string): string[] =>
  source
    .git("ls-tree", "-r", "--full-tree", commit)
    .split("\n")
    .map((line) => `${line.split("\t")[1]} ${line.split(" ")[2]!.split("\t")[0]}`);

describe("fetchWorkspace asks for both commits at once", () => {
  it("fetches the head and the merge-base in one upload-pack request", async () => {
    const before = server.requests.length;
    const workspace = await fetchWorkspace({
      url: server.url("owner/repo"),
      headSha: sha.head!,
      mergeBaseSha: sha.base!,
      tmpRoot,
    });
    const requests = server.requests.slice(before).map((request) => `${request.method} ${request.url}`);
    expect(requests).toEqual([
      "GET /owner/repo.git/info/refs?service=git-upload-pack",
      "POST /owner/repo.git/git-upload-pack",
    ]);
    expect(workspace.head.entries.map((entry) => `${entry.path} ${entry.oid}`)).toEqual(entries(sha.head!));
    expect(workspace.mergeBase.entries.map((entry) => `${entry.path} ${entry.oid}`)).toEqual(
      entries(sha.base!),
    );
    await workspace.dispose();
  });

  it("shares the merge-base's unchanged entries with the head's snapshot", async () => {
    const workspace = await fetchWorkspace({
      url: server.url("owner/repo"),
      headSha: sha.head!,
      mergeBaseSha: sha.base!,
      tmpRoot,
    });
    const { head, mergeBase } = workspace;
    expect(mergeBase.byPath.get("src/file-0.txt")).toBe(head.byPath.get("src/file-0.txt"));
    const changed = mergeBase.byPath.get("src/file-3.txt")!;
    expect(changed).not.toBe(head.byPath.get("src/file-3.txt"));
    expect(`${changed.path} ${changed.oid}`).toBe(
      entries(sha.base!).find((line) => line.startsWith("src/file-3.txt ")),
    );
    expect(mergeBase.byPath.has("NEW.md")).toBe(false);
    await workspace.dispose();
  });

  it("names the merge-base when only the merge-base is refused", async () => {
    const before = server.requests.length;
    const error = await loupeRejection(
      fetchWorkspace({
        url: server.url("owner/repo"),
        headSha: sha.head!,
        mergeBaseSha: sha.dangling!,
        tmpRoot,
      }),
    );
    expect(error.code).toBe("git_commit_unreachable");
    expect(error.message).toContain(`merge-base commit ${sha.dangling}`);
    // The pair refused, the head alone, then the merge-base alone.
    const posts = server.requests.slice(before).filter((request) => request.method === "POST");
    expect(posts).toHaveLength(3);
    expect(fs.readdirSync(tmpRoot)).toHaveLength(0);
  });
});
