// A file that packs small but is huge (gigabytes of one byte compress about a thousandfold):
// every tool refuses it by its size, read from the object headers, and never inflates it. A PR
// that adds such a file must cost a review nothing, and must not take the process's memory.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createToolRegistry } from "../../../src/tools/registry.ts";
import type { ToolName } from "../../../src/tools/types.ts";
import { openLocalRepository } from "../../../src/workspace/open-local.ts";
import type { ObjectReader, Workspace } from "../../../src/workspace/types.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";

const HUGE = 64 * 1024 * 1024;
let repo: FixtureRepo;
let workspace: Workspace;
let hugeOid: string;
const readWhole: string[] = [];
const boundedAnswers: { oid: string; answer: string }[] = [];

beforeAll(async () => {
  repo = createRepo();
  repo.write("src/app.ts", "export const app = 1;\n");
  repo.commit("base");
  repo.write("data/zeros.log", Buffer.alloc(HUGE, "0"));
  repo.write("src/app.ts", "export const app = 2;\n");
  repo.commit("add a huge, very compressible file");
  repo.git("repack", "-a", "-d", "-q"); // packed, as a fetched workspace is
  workspace = await openLocalRepository({ dir: repo.dir, base: "HEAD~1", head: "HEAD" });
  hugeOid = workspace.head.byPath.get("data/zeros.log")!.oid;
});

afterAll(async () => {
  await workspace.dispose();
  repo.dispose();
});

/** The workspace's reader, recording every read the tools make and what bounded reads answered. */
function recording(objects: ObjectReader): ObjectReader {
  return {
    readBlob: (oid) => {
      readWhole.push(oid);
      return objects.readBlob(oid);
    },
    readBlobWithin: async (oid, maxBytes) => {
      const answer = await objects.readBlobWithin(oid, maxBytes);
      boundedAnswers.push({ oid, answer: answer === "too_large" ? answer : "bytes" });
      return answer;
    },
    blobSize: (oid) => objects.blobSize(oid),
  };
}

async function call(name: ToolName, args: unknown): Promise<Record<string, unknown>> {
  const registry = createToolRegistry({ ...workspace, objects: recording(workspace.objects) });
  return JSON.parse((await registry.execute(name, args, new AbortController().signal)).content);
}

describe("a huge, highly compressible file", () => {
  it("is refused by a bounded read, and read whole only when the bound allows it", async () => {
    expect(await workspace.objects.readBlobWithin(hugeOid, 1024 * 1024)).toBe("too_large");
    expect((await workspace.objects.readBlobWithin(hugeOid, HUGE)) as Uint8Array).toHaveLength(HUGE);
  });

  it("read_repository_file refuses it as file_too_large", async () => {
    const result = await call("read_repository_file", { path: "data/zeros.log" });
    expect(result).toMatchObject({ ok: false, error: { code: "file_too_large" } });
  });

  it("search_repository passes over it and still searches the rest", async () => {
    const result = await call("search_repository", { query: "app = 2" });
    expect(result).toMatchObject({ ok: true });
    expect(JSON.stringify(result)).toContain("src/app.ts");
  });

  it("inspect_git_diff says it is too large to show, with its size, and never calls it binary", async () => {
    const result = await call("inspect_git_diff", {});
    expect(result.diff).toContain(
      `Files /dev/null and b/data/zeros.log differ: too large to show (over 1048576 bytes; b/data/zeros.log: ${HUGE} bytes, not read)`,
    );
    expect(result.diff).not.toContain("Binary files");
    expect(result.diff).toContain("+export const app = 2;");
  });

  it("was never read whole by any tool: every read of it was bounded and refused", () => {
    expect(readWhole).not.toContain(hugeOid);
    const ofHuge = boundedAnswers.filter((read) => read.oid === hugeOid);
    expect(ofHuge.length).toBeGreaterThanOrEqual(3); // read, search and diff each asked
    expect(ofHuge.every((read) => read.answer === "too_large")).toBe(true);
    expect(boundedAnswers.some((read) => read.answer === "bytes")).toBe(true);
  });
});
