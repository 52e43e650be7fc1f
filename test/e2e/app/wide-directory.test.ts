// Held beside the tree bomb (tree-bomb.test.ts): a pull request that adds 200,000 entries in one
// directory is within the walk's bounds (workspace/snapshot-bounds.ts), so `loupe review` reads
// both trees whole and skips the change as `too_many_files` — over `max_files`, before any model
// request — rather than as a repository too large to read.

import { execFile } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { PROJECT_ROOT } from "../../support/loupe-process.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { createWideTreeRepo, type WideTreeRepo } from "../../support/wide-tree-repo.ts";

const ENTRIES = 200_000;

let wide: WideTreeRepo;
let provider: ScriptedProvider;

beforeAll(async () => {
  wide = createWideTreeRepo(ENTRIES, 30, "head");
  provider = await startScriptedProvider([]);
}, 120_000);

afterAll(async () => {
  await provider?.stop();
  wide?.repo.dispose();
});

it("skips 200,000 added entries in one directory as too_many_files, with no model request", async () => {
  const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      path.join(PROJECT_ROOT, "node_modules/.bin/node"),
      ["src/cli.ts", "review", "--repo", wide.repo.dir, "--base", "main", "--head", wide.headRef],
      {
        cwd: PROJECT_ROOT,
        maxBuffer: 16 * 1024 * 1024,
        env: {
          PATH: process.env.PATH ?? "",
          OPENAI_BASE_URL: provider.baseURL,
          OPENAI_API_KEY: "sk-wide-directory-0123456789",
          REVIEW_MODEL: "deepseek-v4-flash",
        },
      },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  const outcome = JSON.parse(run.stdout).outcome;
  expect(outcome).toMatchObject({ kind: "skipped", skip_reason: "too_many_files", tokens: 0 });
  expect(outcome.explanation).toContain(`changes ${ENTRIES + 1} files`);
  expect(provider.requests).toHaveLength(0);
}, 300_000);
