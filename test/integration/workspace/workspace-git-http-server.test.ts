import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createRepo, type FixtureRepo, runGitAsync } from "../../support/git-fixture.ts";
import {
  createGitHttpHandler,
  type GitHttpServer,
  startGitHttpServer,
} from "../../support/git-http-server.ts";
import { createDanglingCommit, publishRepository, setRef } from "../../support/git-server-repos.ts";

let source: FixtureRepo;
let client: FixtureRepo;
let tip: string;

beforeAll(() => {
  source = createRepo();
  source.write("a.txt", "one\n");
  source.commit("one");
  source.write("a.txt", "two\n");
  tip = source.commit("two");
  client = createRepo();
});

afterAll(() => {
  source.dispose();
  client.dispose();
});

describe("git http server (CGI bridge to git http-backend)", () => {
  let server: GitHttpServer;
  let bare: string;
  beforeAll(async () => {
    server = await startGitHttpServer();
    bare = publishRepository(server.root, "owner/repo", source);
  });
  afterAll(() => server.stop());

  it("serves a native clone over smart HTTP and records each request", async () => {
    const target = path.join(client.home, "clone1");
    await runGitAsync(["clone", "--quiet", "--bare", server.url("owner/repo"), target], client);
    expect(await runGitAsync(["rev-parse", "main"], { cwd: target, home: client.home })).toBe(tip);
    expect(server.requests.map((r) => `${r.method} ${r.url.split("?")[0]}`)).toContain(
      "GET /owner/repo.git/info/refs",
    );
    expect(server.requests.some((r) => r.method === "POST" && r.url.endsWith("/git-upload-pack"))).toBe(true);
  });

  it("advertises refs set on the bare repository, and keeps dangling commits unadvertised", async () => {
    setRef(bare, "refs/pull/3/head", tip);
    const dangling = createDanglingCommit(bare, tip);
    const refs = await runGitAsync(["ls-remote", server.url("owner/repo")], client);
    expect(refs).toContain(`${tip}\trefs/pull/3/head`);
    expect(refs).not.toContain(dangling);
  });

  it("answers 404 for a repository that does not exist", async () => {
    await expect(runGitAsync(["ls-remote", server.url("owner/missing")], client)).rejects.toThrow();
  });
});

describe("git http server with a required token", () => {
  const token = "ghs_testtoken0123456789abcdef";
  let server: GitHttpServer;
  beforeAll(async () => {
    server = await startGitHttpServer({ requireToken: token });
    publishRepository(server.root, "o/r", source);
  });
  afterAll(() => server.stop());

  it("refuses requests without the token with 401 and WWW-Authenticate: Basic", async () => {
    const response = await fetch(`${server.url("o/r")}/info/refs?service=git-upload-pack`);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic /);
  });

  it.each([
    ["Basic", `Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`],
    ["Bearer", `Bearer ${token}`],
  ])("accepts the token as %s", async (_kind, value) => {
    const refs = await runGitAsync(
      ["-c", `http.extraHeader=Authorization: ${value}`, "ls-remote", server.url("o/r")],
      client,
    );
    expect(refs).toContain(tip);
  });

  it("refuses a wrong token", async () => {
    const response = await fetch(`${server.url("o/r")}/info/refs?service=git-upload-pack`, {
      headers: { Authorization: "Bearer wrong" },
    });
    expect(response.status).toBe(401);
  });
});

describe("git http handler mounted under a prefix", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-git-mounted-"));
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    publishRepository(root, "o/r", source);
    const git = createGitHttpHandler({ root, prefix: "/git" });
    server = http.createServer((req, res) => {
      if (!git(req, res)) res.writeHead(200, { "Content-Type": "application/json" }).end('{"rest":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("serves git under the prefix and leaves other paths to the host server", async () => {
    expect(await runGitAsync(["ls-remote", `${base}/git/o/r.git`], client)).toContain(tip);
    expect(await (await fetch(`${base}/repos/o/r`)).json()).toEqual({ rest: true });
  });
});
