import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { fetchWorkspace, PullRequestMovedError } from "../../../src/workspace/fetch.ts";
import type { CommitSnapshot, ObjectReader } from "../../../src/workspace/types.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { type GitHttpServer, startGitHttpServer } from "../../support/git-http-server.ts";
import {
  createDanglingCommit,
  deleteRef,
  publishRepository,
  setRef,
} from "../../support/git-server-repos.ts";
import { loupeRejection } from "../../support/loupe-rejection.ts";

// main:     m1 ── m2 ── m3 ── m4                 (tip)
// feature:         └── f1 ── f2 ── f3           (PR #7 head; the branch is deleted on the server,
//                                                 only refs/pull/7/head reaches it); merge-base m2
// moved:    PR #8: refs/pull/8/head = f3, but the event named an older, force-pushed-away head
const TOKEN = "ghs_fetchtesttoken0123456789";
let source: FixtureRepo;
let server: GitHttpServer;
let authServer: GitHttpServer;
let tmpRoot: string;
const sha: Record<string, string> = {};

function lsTree(commit: string): string[] {
  return source.git("ls-tree", "-r", "--full-tree", commit).split("\n");
}

// Every blob of the snapshot is in the store and hashes to its id (git's own object format).
async function expectAllBlobsIntact(snapshot: CommitSnapshot, objects: ObjectReader): Promise<void> {
  for (const entry of snapshot.entries) {
    const blob = await objects.readBlob(entry.oid);
    const oid = createHash("sha1").update(`blob ${blob.byteLength}\0`).update(blob).digest("hex");
    expect(`${entry.path} ${oid}`).toBe(`${entry.path} ${entry.oid}`);
  }
}

function leftovers(): string[] {
  return fs.readdirSync(tmpRoot);
}

beforeAll(async () => {
  source = createRepo();
  for (let i = 0; i < 40; i += 1) source.write(`src/file-${i}.txt`, `line ${i}\n`.repeat(50));
  sha.m1 = source.commit("m1");
  source.write("README.md", "# readme\n");
  sha.m2 = source.commit("m2");
  source.branch("feature");
  source.write("src/file-1.txt", "changed\n");
  sha.f1 = source.commit("f1");
  source.write("bin/tool", Buffer.from([0, 1, 2, 3]));
  sha.f2 = source.commit("f2");
  source.remove("src/file-2.txt");
  sha.f3 = source.commit("f3");
  source.checkout("main");
  source.write("CHANGES.md", "main 3\n");
  sha.m3 = source.commit("m3");
  source.write("CHANGES.md", "main 4\n");
  sha.m4 = source.commit("m4");

  server = await startGitHttpServer();
  const bare = publishRepository(server.root, "owner/repo", source);
  setRef(bare, "refs/pull/7/head", sha.f3!);
  setRef(bare, "refs/pull/8/head", sha.f3!);
  setRef(bare, "refs/merge-requests/9/head", sha.f3!);
  deleteRef(bare, "refs/heads/feature");
  sha.dangling = createDanglingCommit(bare, sha.f2!, "force-pushed away");

  authServer = await startGitHttpServer({ requireToken: TOKEN });
  publishRepository(authServer.root, "owner/private", source);
  tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-fetch-test-"));
});

afterAll(async () => {
  await server.stop();
  await authServer.stop();
  source.dispose();
  fs.rmSync(tmpRoot, { recursive: true, force: true });
});

describe("fetchWorkspace against a real git http-backend", () => {
  it("fetches the head and a non-tip merge-base by SHA at depth 1 and reads both trees", async () => {
    const workspace = await fetchWorkspace({
      url: server.url("owner/repo"),
      headSha: sha.m4!,
      mergeBaseSha: sha.m2!,
      tmpRoot,
    });
    expect(workspace.head.commit).toBe(sha.m4);
    expect(workspace.mergeBase.commit).toBe(sha.m2);
    expect(workspace.head.entries.map((e) => `${e.path} ${e.oid}`)).toEqual(
      lsTree(sha.m4!).map((line) => `${line.split("\t")[1]} ${line.split(" ")[2]!.split("\t")[0]}`),
    );
    await expectAllBlobsIntact(workspace.head, workspace.objects);
    await expectAllBlobsIntact(workspace.mergeBase, workspace.objects);
    const readme = workspace.mergeBase.byPath.get("README.md")!;
    expect(Buffer.from(await workspace.objects.readBlob(readme.oid)).toString()).toBe("# readme\n");
    expect(leftovers()).toHaveLength(1);
    // The packs were received and indexed by Loupe (nothing half-installed): each index is the
    // one git index-pack writes for that pack.
    const packDir = path.join(tmpRoot, leftovers()[0]!, "objects", "pack");
    const packs = fs.readdirSync(packDir).sort();
    expect(packs.every((name) => /^pack-[0-9a-f]{40}\.(pack|idx)$/.test(name))).toBe(true);
    for (const pack of packs.filter((name) => name.endsWith(".pack"))) {
      const oracle = path.join(tmpRoot, "oracle.idx");
      source.git("index-pack", "-o", oracle, path.join(packDir, pack));
      expect(
        fs.readFileSync(oracle).equals(fs.readFileSync(path.join(packDir, pack.replace(".pack", ".idx")))),
      ).toBe(true);
      fs.rmSync(oracle);
    }
    await workspace.dispose();
    expect(leftovers()).toHaveLength(0);
  });

  it("fetches a head that only refs/pull/<n>/head reaches (its branch was deleted)", async () => {
    const workspace = await fetchWorkspace({
      url: server.url("owner/repo"),
      headSha: sha.f3!,
      mergeBaseSha: sha.m2!,
      pullNumber: 7,
      tmpRoot,
    });
    expect(workspace.head.byPath.has("bin/tool")).toBe(true);
    expect(workspace.head.byPath.has("src/file-2.txt")).toBe(false);
    await workspace.dispose();
  });

  it("says the PR moved on when the head SHA is gone and refs/pull/<n>/head names another commit", async () => {
    const error = await loupeRejection(
      fetchWorkspace({
        url: server.url("owner/repo"),
        headSha: sha.dangling!,
        mergeBaseSha: sha.m2!,
        pullNumber: 8,
        tmpRoot,
      }),
    );
    expect(error).toBeInstanceOf(PullRequestMovedError);
    expect(error.message).toContain(`moved on: refs/pull/8/head is ${sha.f3}`);
    expect(leftovers()).toHaveLength(0);
  });

  it("says the merge request moved on by the host's head ref: GitLab's refs/merge-requests/<iid>/head", async () => {
    const error = await loupeRejection(
      fetchWorkspace({
        url: server.url("owner/repo"),
        headSha: sha.dangling!,
        mergeBaseSha: sha.m2!,
        pullNumber: 9,
        headRef: "refs/merge-requests/9/head",
        tmpRoot,
      }),
    );
    expect(error).toBeInstanceOf(PullRequestMovedError);
    expect(error.message).toContain(`moved on: refs/merge-requests/9/head is ${sha.f3}`);
    expect(leftovers()).toHaveLength(0);
  });

  it("names the unreachable SHA without isomorphic-git's misleading text", async () => {
    const error = await loupeRejection(
      fetchWorkspace({
        url: server.url("owner/repo"),
        headSha: sha.dangling!,
        mergeBaseSha: sha.m2!,
        tmpRoot,
      }),
    );
    expect(error.code).toBe("git_commit_unreachable");
    expect(error.message).toContain(sha.dangling);
    expect(error.message).not.toContain("Could not find");
    expect(leftovers()).toHaveLength(0);
  });

  it("finds the merge-base by bounded deepening from a base SHA", async () => {
    const workspace = await fetchWorkspace({
      url: server.url("owner/repo"),
      headSha: sha.f3!,
      baseSha: sha.m4!,
      tmpRoot,
    });
    expect(workspace.mergeBase.commit).toBe(sha.m2);
    expect(workspace.head.commit).toBe(sha.f3);
    await expectAllBlobsIntact(workspace.head, workspace.objects);
    await expectAllBlobsIntact(workspace.mergeBase, workspace.objects);
    await workspace.dispose();
  });

  it("stops deepening at maxDeepen with a clear error", async () => {
    const error = await loupeRejection(
      fetchWorkspace({
        url: server.url("owner/repo"),
        headSha: sha.f3!,
        baseSha: sha.m4!,
        maxDeepen: 1,
        tmpRoot,
      }),
    );
    expect(error.code).toBe("git_commit_unreachable");
    expect(error.message).toContain("no merge-base");
    expect(leftovers()).toHaveLength(0);
  });
});

describe("fetchWorkspace with a server that requires a token", () => {
  it("fails with git_authentication_failed without the token, and leaves nothing behind", async () => {
    const error = await loupeRejection(
      fetchWorkspace({
        url: authServer.url("owner/private"),
        headSha: sha.m4!,
        mergeBaseSha: sha.m2!,
        tmpRoot,
      }),
    );
    expect(error.code).toBe("git_authentication_failed");
    expect(error.message).toContain("401");
    expect(leftovers()).toHaveLength(0);
  });

  it("fails with git_authentication_failed with a wrong token", async () => {
    const error = await loupeRejection(
      fetchWorkspace({
        url: authServer.url("owner/private"),
        headSha: sha.m4!,
        mergeBaseSha: sha.m2!,
        token: "ghs_wrongtoken0000000000",
        tmpRoot,
      }),
    );
    expect(error.code).toBe("git_authentication_failed");
  });

  it("works with the token, which appears in no URL and not in the repository config", async () => {
    const before = authServer.requests.length;
    const workspace = await fetchWorkspace({
      url: authServer.url("owner/private"),
      headSha: sha.f3!,
      baseSha: sha.m4!,
      token: TOKEN,
      tmpRoot,
    });
    expect(workspace.mergeBase.commit).toBe(sha.m2);
    const requests = authServer.requests.slice(before);
    expect(requests.length).toBeGreaterThanOrEqual(4);
    const basic = Buffer.from(`x-access-token:${TOKEN}`).toString("base64");
    for (const request of requests) {
      expect(request.url).not.toContain(TOKEN);
      expect(request.url).not.toContain(basic);
      expect(request.headers.authorization).toBe(`Basic ${basic}`);
    }
    const [dir] = leftovers();
    const files = fs.readdirSync(path.join(tmpRoot, dir!), { recursive: true, encoding: "utf8" });
    for (const file of files) {
      const full = path.join(tmpRoot, dir!, file);
      if (!fs.statSync(full).isFile()) continue;
      const text = fs.readFileSync(full, "latin1");
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(basic);
    }
    expect(fs.readFileSync(path.join(tmpRoot, dir!, "config"), "utf8")).toContain(
      `url = ${authServer.url("owner/private")}`,
    );
    await workspace.dispose();
  });
});

describe("fetchWorkspace input and cancellation", () => {
  it.each([
    [{ url: "http://x-access-token:secret@127.0.0.1/o/r.git" }, "credentials"],
    [{ url: "ssh://git@example.com/o/r.git" }, "http or https"],
    [{ url: "not a url" }, "not a valid URL"],
    [{ headSha: "abc" }, "40 lowercase hex"],
    [{ mergeBaseSha: undefined }, "needs a merge-base SHA or a base SHA"],
    [{ pullNumber: 0 }, "positive integer"],
    [{ maxBytes: 0 }, "maxBytes must be a positive integer"],
  ])("refuses bad input %j before touching the disk", async (override, message) => {
    const error = await loupeRejection(
      fetchWorkspace({
        url: server.url("owner/repo"),
        headSha: sha.m4!,
        mergeBaseSha: sha.m2!,
        tmpRoot,
        ...override,
      }),
    );
    expect(error.code).toBe("usage_invalid");
    expect(error.message).toContain(message);
    expect(error.message).not.toContain("secret");
    expect(leftovers()).toHaveLength(0);
  });

  it("aborts mid-fetch with git_aborted and removes the temporary directory", async () => {
    const controller = new AbortController();
    let served = 0;
    const slow = await startGitHttpServer({
      onRequest: async (request) => {
        served += 1;
        if (request.method === "POST") {
          controller.abort();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
    });
    try {
      publishRepository(slow.root, "o/r", source);
      const error = await loupeRejection(
        fetchWorkspace({
          url: slow.url("o/r"),
          headSha: sha.m4!,
          mergeBaseSha: sha.m2!,
          signal: controller.signal,
          tmpRoot,
        }),
      );
      expect(error.code).toBe("git_aborted");
      expect(served).toBe(2);
      expect(leftovers()).toHaveLength(0);
    } finally {
      await slow.stop();
    }
  });

  it("turns a stalled server into git_timeout", async () => {
    // The upload-pack request stalls until the test is over, however long the timeout is.
    let release = (): void => {};
    const stall = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stalled = await startGitHttpServer({
      onRequest: (request) => (request.method === "POST" ? stall : undefined),
    });
    try {
      publishRepository(stalled.root, "o/r", source);
      const error = await loupeRejection(
        fetchWorkspace({
          url: stalled.url("o/r"),
          headSha: sha.m4!,
          mergeBaseSha: sha.m2!,
          timeoutMs: 200,
          tmpRoot,
        }),
      );
      expect(error.code).toBe("git_timeout");
      expect(leftovers()).toHaveLength(0);
    } finally {
      release();
      await stalled.stop();
    }
  });

  it("reports a connection cut in the middle of the pack as git_network_failed, leaving nothing", async () => {
    // A proxy in front of the real git http-backend that cuts each upload-pack answer short.
    const proxy = http.createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const upstream = await fetch(
        `${server.url("owner/repo").replace(/\/owner\/repo\.git$/, "")}${request.url}`,
        {
          method: request.method,
          headers: { "content-type": String(request.headers["content-type"] ?? "") },
          ...(request.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
        },
      );
      const body = Buffer.from(await upstream.arrayBuffer());
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "" });
      if (!request.url!.includes("git-upload-pack") || request.method !== "POST") {
        response.end(body);
        return;
      }
      response.write(body.subarray(0, Math.floor(body.byteLength / 2)), () => response.socket?.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = proxy.address() as import("node:net").AddressInfo;
      const error = await loupeRejection(
        fetchWorkspace({
          url: `http://127.0.0.1:${port}/owner/repo.git`,
          headSha: sha.m4!,
          mergeBaseSha: sha.m2!,
          tmpRoot,
        }),
      );
      expect(error.code).toBe("git_network_failed");
      expect(leftovers()).toHaveLength(0);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it("reports a refused connection as git_network_failed", async () => {
    const gone = await startGitHttpServer();
    const url = gone.url("o/r");
    await gone.stop();
    const error = await loupeRejection(
      fetchWorkspace({ url, headSha: sha.m4!, mergeBaseSha: sha.m2!, tmpRoot }),
    );
    expect(error.code).toBe("git_network_failed");
    expect(leftovers()).toHaveLength(0);
  });

  it("reports a missing repository as git_repository_invalid", async () => {
    const error = await loupeRejection(
      fetchWorkspace({ url: server.url("owner/missing"), headSha: sha.m4!, mergeBaseSha: sha.m2!, tmpRoot }),
    );
    expect(error.code).toBe("git_repository_invalid");
  });
});

// Random bytes do not compress, so each big file costs its size on the wire.
describe("fetchWorkspace with a byte limit", () => {
  const MIB = 1024 * 1024;
  let big: FixtureRepo;
  const bigSha: Record<string, string> = {};

  beforeAll(() => {
    big = createRepo();
    big.write("one.bin", randomBytes(3 * MIB));
    bigSha.base = big.commit("base: one 3 MiB file");
    big.remove("one.bin");
    big.write("two.bin", randomBytes(3 * MIB));
    bigSha.head = big.commit("head: another 3 MiB file instead");
    publishRepository(server.root, "owner/big", big);
  });
  afterAll(() => big.dispose());

  it("fetches both commits when they fit the limit", async () => {
    const workspace = await fetchWorkspace({
      url: server.url("owner/big"),
      headSha: bigSha.head!,
      mergeBaseSha: bigSha.base!,
      maxBytes: 8 * MIB,
      tmpRoot,
    });
    expect(workspace.head.byPath.has("two.bin")).toBe(true);
    expect(workspace.mergeBase.byPath.has("one.bin")).toBe(true);
    await workspace.dispose();
  });

  it("stops at the wire with git_repository_too_large, and leaves nothing behind", async () => {
    const error = await loupeRejection(
      fetchWorkspace({
        url: server.url("owner/big"),
        headSha: bigSha.head!,
        mergeBaseSha: bigSha.base!,
        maxBytes: 2 * MIB,
        tmpRoot,
      }),
    );
    expect(error.code).toBe("git_repository_too_large");
    expect(error.message).toContain(`more than ${2 * MIB} bytes`);
    expect(leftovers()).toHaveLength(0);
  });

  it("counts the head and the merge-base fetch against one budget", async () => {
    // Each commit alone (3 MiB) fits 4 MiB; the two together do not.
    const alone = await fetchWorkspace({
      url: server.url("owner/big"),
      headSha: bigSha.head!,
      mergeBaseSha: bigSha.head!,
      maxBytes: 4 * MIB,
      tmpRoot,
    });
    await alone.dispose();
    const error = await loupeRejection(
      fetchWorkspace({
        url: server.url("owner/big"),
        headSha: bigSha.head!,
        mergeBaseSha: bigSha.base!,
        maxBytes: 4 * MIB,
        tmpRoot,
      }),
    );
    expect(error.code).toBe("git_repository_too_large");
    expect(leftovers()).toHaveLength(0);
  });
});
