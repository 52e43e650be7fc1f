// A real pull request, reviewed as a user's would be: commander.js's move to ES modules (renames,
// a lockfile update) with a data file over 1 MiB, a vendored folder, generated output and a binary
// image (test/support/commander-fixture.ts), through Loupe as a real server process, the fake
// GitHub, real git over HTTP and the realistic model, with the default settings: verification on,
// no REVIEW_* override. It must end `final_review` with a posted review, and its check run must
// say what it did with the large file and the lockfile.

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { NOT_REVIEWED_SENTENCES } from "../../../src/domain/coverage.ts";
import {
  BINARY_PATH,
  createCommanderEsmRepo,
  GENERATED_PATH,
  LARGE_DATA_PATH,
  LOCKFILE_PATH,
  RENAMES,
  VENDORED_PATH,
} from "../../support/commander-fixture.ts";
import type { KnownFinding } from "../../support/realistic-model.ts";
import { requestKind } from "../../support/realistic-model.ts";
import { reviewThroughServer } from "../../support/server-review.ts";
import { type ServerWorld, startServerWorld } from "../../support/server-world.ts";

const SINGLETON: KnownFinding = {
  path: "index.js",
  line: 7,
  severity: "medium",
  titles: [
    "Importing the module creates a shared `program` singleton",
    "`program` is instantiated at import time and shared by every importer",
    "Module-level `program` instance is global mutable state",
  ],
  code: "export const program = new Command();",
  impact: "two packages that import commander share one parser and each other's options",
  recommendation: "Document that `program` is shared, or export only `createCommand` for libraries.",
};
const DEPRECATED: KnownFinding = {
  path: "index.js",
  line: 21,
  severity: "low",
  titles: [
    "Deprecated alias `InvalidOptionArgumentError` is still exported without a warning",
    "`InvalidOptionArgumentError` alias kept with no deprecation notice",
  ],
  code: "export { InvalidArgumentError as InvalidOptionArgumentError }; // Deprecated",
  impact: "users of the old name get no signal that it will go away",
};

let world: ServerWorld;

beforeAll(async () => {
  world = await startServerWorld({
    name: "real-pr",
    repo: "commander",
    fixture: createCommanderEsmRepo,
    // GitHub lists the data file without its patch: its diff is past the per-file limit.
    fileDiffLimit: true,
    model: { findings: [SINGLETON, DEPRECATED], seed: 2464 },
    // The test world turns verification off for the tests that script only a reviewer: unset, it is on.
    unset: ["REVIEW_VERIFY"],
  });
}, 120_000);

afterAll(async () => {
  await world?.stop();
});

it("has what real pull requests carry: renames, a lockfile, a file over 1 MiB, a binary", () => {
  const { fixture } = world;
  const changes = fixture.git("diff", "--name-status", "-M", "main", "change").split("\n");
  for (const [from, to] of RENAMES)
    expect(changes).toContainEqual(expect.stringMatching(`^R\\d+\\t${from}\\t${to}$`));
  expect(changes).toContain(`M\t${LOCKFILE_PATH}`);
  expect(fixture.git("diff", "--numstat", "main", "change", "--", BINARY_PATH)).toBe(`-\t-\t${BINARY_PATH}`);
  fixture.checkout("change");
  expect(fs.statSync(path.join(fixture.dir, LARGE_DATA_PATH)).size).toBeGreaterThan(1024 * 1024);
  fixture.checkout("main");
});

it("reviews it with the default settings: final_review, a posted review, the large file and the lockfile accounted for", async () => {
  const { github, loupe, secret, provider } = world;
  const run = await reviewThroughServer({
    github,
    loupe,
    secret,
    repo: "commander",
    number: 2464,
    headRef: "change",
  });
  const done = run.history.at(-1)!;
  const summary = done.output?.summary ?? "";
  expect(summary).toContain("`final_review`");
  const posted = github.reviews.filter((r) => r.repo === "commander");
  expect(posted).toHaveLength(1);
  expect(posted[0]!.comments.map((c) => `${c.path}:${c.line}`).sort()).toEqual(["index.js:21", "index.js:7"]);
  // The reviewer read the diff first; each finding went through the verifier.
  const kinds = provider.requests.map(requestKind);
  expect(kinds[0]).toBe("review");
  expect(kinds.filter((k) => k === "verify").length).toBeGreaterThanOrEqual(2);
  // The coverage names each file left out or only described, on the row of its reason.
  const row = (path: string) => summary.split("\n").find((line) => line.includes(`\`${path}\``)) ?? "";
  expect(row(LARGE_DATA_PATH)).toContain(NOT_REVIEWED_SENTENCES.described);
  expect(row(LOCKFILE_PATH)).toContain(NOT_REVIEWED_SENTENCES.excluded);
  expect(row(BINARY_PATH)).toContain(NOT_REVIEWED_SENTENCES.described);
  expect(row(GENERATED_PATH)).toContain(NOT_REVIEWED_SENTENCES.generated);
  expect(row(VENDORED_PATH)).toContain(NOT_REVIEWED_SENTENCES.excluded);
});
