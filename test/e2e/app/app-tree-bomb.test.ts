// The tree bomb of tree-bomb.test.ts through the App: Loupe as a real server process, its fetch in
// a repository worker (src/isolation), the fake GitHub serving the bomb over a real
// `git http-backend`. The walk stops at its bound inside the worker, the error crosses to the
// server's thread with its code, and the review's check run completes skipped as
// `repository_too_large` — before any model request, and without the worker dying first.

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { reviewThroughServer } from "../../support/server-review.ts";
import { type ServerWorld, startServerWorld } from "../../support/server-world.ts";
import { createTreeBombRepo } from "../../support/tree-bomb-repo.ts";

let world: ServerWorld;

beforeAll(async () => {
  world = await startServerWorld({
    name: "app-tree-bomb",
    repo: "bomb",
    fixture: () => createTreeBombRepo().repo,
    // No turn: a request to the model would find none, and be counted.
    script: [],
  });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

it("completes the check run skipped as repository_too_large, with no model request", async () => {
  const { github, provider, loupe, secret } = world;
  const run = await reviewThroughServer({
    github,
    loupe,
    secret,
    repo: "bomb",
    number: 1,
    headRef: "change",
  });
  const last = run.history.at(-1)!;
  expect(last.conclusion).toBe("skipped");
  expect(last.output?.summary).toContain("lists more than 1000000 paths");
  expect(provider.requests).toHaveLength(0);
}, 120_000);
