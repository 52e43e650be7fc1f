// The inputs that once held the server's event loop for seconds, fed to Loupe as a real server
// process (`node src/server.ts`) while a separate process samples /healthz and signed webhooks
// (latency-probe.ts): megabytes of one repeated character searched for a near miss, a final review
// of 100 findings spanning a megabyte file, and a 4,096-character path against a configuration at
// the glob limits. Each review ends with a named reason and a completed check run, and the server
// answers both kinds of request at p99 under 100 ms throughout — the only time bound asserted,
// measured on the server's own time (latency-sampler.ts leaves out the time its main thread waited
// for a CPU, so a busy machine does not count). test/integration/app/app-*-cost.test.ts feed the same
// inputs to the in-process harness and watch its event loop directly.

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { TERMINATION_SENTENCES } from "../../../src/domain/outcome.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import type { CheckRun } from "../../support/fake-github-checks.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { expectResponsive, sampled } from "../../support/latency-sampling.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { reviewThroughServer } from "../../support/server-review.ts";
import {
  BIG_FILE,
  BIG_FILE_LINES,
  configAtTheLimits,
  LONG_NAME,
  megabyteFile,
  NEAR_MISS,
  spanningFindings,
  writeRepeatedCharacterFiles,
} from "../../support/stall-inputs.ts";

const SECRET = `whsec-stall-${process.pid}-${Date.now()}`;
const API_KEY = `test-key-stall-${process.pid}-${Date.now()}`;

let github: FakeGitHub;
/** Its default branch holds the data files, so the comparison lists only src/a.ts, as GitHub's would. */
let repeated: FixtureRepo;
/** Branches `big` (adds the megabyte file) and `long` (adds the long name). */
let changes: FixtureRepo;
let provider: ScriptedProvider;
let loupe: LoupeProcess;

const onA = () => finding({ path: "src/a.ts", line: 1, severity: "high", evidence: "export const a =" });

beforeAll(async () => {
  repeated = createRepo();
  repeated.write("src/a.ts", "export const a = 1;\n");
  writeRepeatedCharacterFiles(repeated);
  repeated.commit("data: one repeated character");
  repeated.branch("change");
  repeated.write("src/a.ts", "export const a = 2;\n");
  repeated.commit("a is 2");
  repeated.checkout("main");

  changes = createRepo();
  changes.write("src/a.ts", "export const a = 1;\n");
  changes.commit("a");
  changes.branch("big");
  changes.write(BIG_FILE, megabyteFile());
  changes.commit("a megabyte file");
  changes.branch("long", "main");
  changes.write("src/a.ts", "export const a = 2;\n");
  changes.git("add", "src/a.ts");
  // No file system takes a name of 4,096 characters; git's index and trees do.
  const blobFile = path.join(changes.home, "long-name-blob");
  fs.writeFileSync(blobFile, "x\n");
  const blob = changes.git("hash-object", "-w", blobFile);
  changes.git("update-index", "--add", "--cacheinfo", `100644,${blob},${LONG_NAME}`);
  changes.git("commit", "--quiet", "--no-verify", "-m", "a long name");
  changes.git("checkout", "--quiet", "--force", "main");

  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "repeated", source: repeated });
  github.addRepository({ owner: "octo", repo: "big", source: changes });
  github.addRepository({ owner: "octo", repo: "globs", source: changes, config: configAtTheLimits() });

  // One model for the three reviews, in the order the tests run them.
  provider = await startScriptedProvider([
    { body: toolCallsTurn([{ id: "call_1", name: "search_repository", arguments: { query: NEAR_MISS } }]) },
    { body: stopTurn(review([onA()])) },
    { body: stopTurn(review(spanningFindings())) },
    { body: stopTurn(review([onA()])) },
  ]);
  loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: provider.baseURL,
      webhookSecret: SECRET,
      apiKey: API_KEY,
    }),
  });
}, 180_000);

afterAll(async () => {
  await loupe?.stop();
  await provider?.stop();
  await github?.stop();
  repeated?.dispose();
  changes?.dispose();
});

/** Opens a pull request, delivers its webhook, and waits for its check run to complete. */
function reviewOf(repo: string, number: number, headRef: string): Promise<CheckRun> {
  return reviewThroughServer({ github, loupe, secret: SECRET, repo, number, headRef });
}

function expectFinalReview(run: CheckRun): void {
  const final = run.history.at(-1)!;
  expect(final.conclusion).toBe("success");
  expect(final.output?.summary).toContain(TERMINATION_SENTENCES.final_review);
}

// Each review reads megabytes on purpose, while the probe samples beside it; on a machine other
// work shares it may take minutes. Jest's timeout only guards against a hang: no bound on time is
// asserted but the server's p99 (latency-sampling.ts).
const REVIEW_UNDER_LOAD_MS = 180_000;

describe("hostile inputs, reviewed by the server process", () => {
  it(
    "searches megabytes of one repeated character for a near miss while answering at p99 under 100 ms",
    async () => {
      const [run, samples] = await sampled(loupe, SECRET, () => reviewOf("repeated", 1, "change"));
      expectFinalReview(run);
      // The search read all 48 MiB and found nothing: no match, not cut.
      const toolMessage = JSON.parse(provider.requests[1]!.bodyText).messages.at(-1);
      expect(JSON.parse(toolMessage.content)).toMatchObject({ ok: true, matches: [], truncated: false });
      expect(github.reviews.filter((r) => r.repo === "repeated")).toHaveLength(1);
      expectResponsive(samples, "near-miss search over 48 MiB of one character");
    },
    REVIEW_UNDER_LOAD_MS,
  );

  it(
    "checks and plans 100 findings spanning a megabyte file while answering at p99 under 100 ms",
    async () => {
      const [run, samples] = await sampled(loupe, SECRET, () => reviewOf("big", 2, "big"));
      expectFinalReview(run);
      const posted = github.reviews.filter((r) => r.repo === "big");
      expect(posted).toHaveLength(1);
      // max_findings (50) inline, each over its whole range in the file's one hunk; the rest in the body.
      const comments = posted[0]!.comments;
      expect(comments).toHaveLength(50);
      expect(comments[0]).toMatchObject({
        path: BIG_FILE,
        start_line: 1,
        line: BIG_FILE_LINES,
        side: "RIGHT",
      });
      expectResponsive(samples, "100 findings over a megabyte file");
    },
    REVIEW_UNDER_LOAD_MS,
  );

  it(
    "matches a 4,096-character path against globs at the limits while answering at p99 under 100 ms",
    async () => {
      const [run, samples] = await sampled(loupe, SECRET, () => reviewOf("globs", 3, "long"));
      expectFinalReview(run);
      // The long name was reviewed (no pattern of either list but `**` matches it).
      expect(provider.requests[3]!.bodyText).toContain(LONG_NAME);
      expect(github.reviews.filter((r) => r.repo === "globs")).toHaveLength(1);
      expectResponsive(samples, "a 4,096-character path against globs at the limits");
    },
    REVIEW_UNDER_LOAD_MS,
  );
});
