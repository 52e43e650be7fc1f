// What a fetch loads into a fresh process. An ES import of node:http reads every export of the
// module to build its namespace, and three of them (WebSocket, CloseEvent, MessageEvent) are
// getters that load undici, Node's fetch: about 90 ms of CPU at the start of every fetch, for a
// client that speaks node:http and never calls fetch (bench/README.md, issue 43).

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { type GitHttpServer, startGitHttpServer } from "../../support/git-http-server.ts";
import { publishRepository } from "../../support/git-server-repos.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const FETCH = pathToFileURL(path.join(ROOT, "src/workspace/fetch.ts")).href;

let source: FixtureRepo;
let server: GitHttpServer;
let tmpRoot: string;
let head: string;
let base: string;

beforeAll(async () => {
  source = createRepo();
  source.write("README.md", "base\n");
  base = source.commit("base");
  source.write("README.md", "head\n");
  head = source.commit("head");
  server = await startGitHttpServer();
  publishRepository(server.root, "owner/repo", source);
  tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-fetch-load-"));
});

afterAll(async () => {
  await server.stop();
  source.dispose();
  fs.rmSync(tmpRoot, { recursive: true, force: true });
});

describe("a fetch in a fresh process", () => {
  it("speaks node:http without loading undici", async () => {
    const script = [
      `const { fetchWorkspace } = await import(${JSON.stringify(FETCH)});`,
      `const workspace = await fetchWorkspace(${JSON.stringify({ url: server.url("owner/repo"), headSha: head, mergeBaseSha: base, tmpRoot })});`,
      "const files = workspace.head.entries.map((entry) => entry.path);",
      "await workspace.dispose();",
      "process.stdout.write(JSON.stringify({ files, loaded: process.moduleLoadList }));",
    ].join("\n");
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      cwd: ROOT,
    });
    const { files, loaded } = JSON.parse(stdout) as { files: string[]; loaded: string[] };
    // The reading works: the fetch ran, over node:http's client.
    expect(files).toEqual(["README.md"]);
    expect(loaded).toContain("NativeModule _http_client");
    expect(loaded.filter((name) => name.includes("undici"))).toEqual([]);
  });
});
