// A 2,000-file pull request through Loupe as a real server process, the fake GitHub (its
// comparison cut at 300 files, the pull request's list paginated up to 3,000) and the scripted
// model: it is reviewed in seven passes, one review is published with the findings of every pass
// that finished (a finding two passes raised, once), the pass whose requests the provider answers
// with 500 leaves its files listed as not covered, and the check run shows the coverage.

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { finding, review, stopTurn } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import {
  type ScriptedProvider,
  type ScriptedTurn,
  startScriptedProvider,
} from "../../support/scripted-provider.ts";
import { reviewThroughServer } from "../../support/server-review.ts";

const SECRET = `whsec-e2e-large-${process.pid}-${Date.now()}`;
const API_KEY = `test-key-e2e-large-${process.pid}-${Date.now()}`;
const DIRECTORIES = 40;
const FILES_PER_DIRECTORY = 50;
const FAILING_PASS = 3;

let github: FakeGitHub;
let provider: ScriptedProvider;
let loupe: LoupeProcess;
let fixture: FixtureRepo;

const pathOf = (d: number, f: number) =>
  `pkg${String(d).padStart(2, "0")}/file${String(f).padStart(2, "0")}.ts`;

/** 2,000 files on main, each changed by one line on the branch `large`. */
function createLargeChange(): FixtureRepo {
  const repo = createRepo();
  for (let d = 0; d < DIRECTORIES; d++)
    for (let f = 0; f < FILES_PER_DIRECTORY; f++) repo.write(pathOf(d, f), `export const v${f} = ${d};\n`);
  repo.commit("two thousand files");
  repo.branch("large", "main");
  for (let d = 0; d < DIRECTORIES; d++)
    for (let f = 0; f < FILES_PER_DIRECTORY; f++)
      repo.write(pathOf(d, f), `export const v${f} = ${d + 1};\n`);
  repo.commit("change every file");
  repo.checkout("main");
  return repo;
}

/** Pass n's answer: a finding of its own, and one every pass raises (kept once). */
function passAnswer(n: number): ScriptedTurn {
  const own = finding({
    title: `Problem seen by pass ${n}`,
    path: pathOf(n, 0),
    line: 1,
    severity: "medium",
    evidence: "export const v0 =",
  });
  const shared = finding({
    title: "Shared problem",
    path: pathOf(0, 0),
    line: 1,
    severity: "low",
    evidence: "export const v0 =",
  });
  return { body: stopTurn(review([own, shared])) };
}

beforeAll(async () => {
  fixture = createLargeChange();
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "large", source: fixture });
  const script: ScriptedTurn[] = [];
  for (let n = 1; n <= 7; n++) script.push(n === FAILING_PASS ? { fault: "empty_500" } : passAnswer(n));
  provider = await startScriptedProvider(script);
  loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: provider.baseURL,
      webhookSecret: SECRET,
      apiKey: API_KEY,
      // Seven passes need fourteen rounds (two a pass); no retry, so the 500 fails its pass.
      extra: { REVIEW_MAX_ROUNDS: "16", OPENAI_MAX_RETRIES: "0" },
    }),
  });
}, 120_000);

afterAll(async () => {
  await loupe?.stop();
  await provider?.stop();
  await github?.stop();
  fixture?.dispose();
});

it("reviews 2,000 files in passes, publishes the finished passes' findings once, and shows the coverage", async () => {
  const run = await reviewThroughServer({
    github,
    loupe,
    secret: SECRET,
    repo: "large",
    number: 1,
    headRef: "large",
  });

  // Seven passes, each told which part of the change it covers; together they list every file.
  expect(provider.requests).toHaveLength(7);
  const covered = provider.requests.map((r) => {
    const match = /this is pass (\d) of 7: it covers (\d+) of 2000 changed files/i.exec(r.bodyText);
    expect(match).not.toBeNull();
    return Number(match![2]);
  });
  expect(covered.reduce((a, b) => a + b, 0)).toBe(2000);
  for (const files of covered) expect(files).toBeLessThanOrEqual(300);

  // One review, with every finished pass's own finding and the shared one once; none of pass 3.
  const posted = github.reviews.filter((r) => r.repo === "large");
  expect(posted).toHaveLength(1);
  const text = [posted[0]!.body, ...posted[0]!.comments.map((c) => c.body)].join("\n");
  for (const n of [1, 2, 4, 5, 6, 7]) expect(text).toContain(`Problem seen by pass ${n}`);
  expect(text).not.toContain(`Problem seen by pass ${FAILING_PASS}`);
  expect(text.split("Shared problem")).toHaveLength(2);

  // The check run: incomplete, with the coverage table and the failed pass's files not covered.
  const last = run.history.at(-1)!;
  const summary = last.output?.summary ?? "";
  const failedFiles = covered[FAILING_PASS - 1]!;
  expect(last.output?.title).toBe(
    `Loupe: review incomplete (provider_unavailable) · ${2000 - failedFiles} of 2000 files reviewed`,
  );
  expect(summary).toContain(`${2000 - failedFiles} of 2000 changed files reviewed`);
  expect(summary).toContain("in 7 passes (7 ran)");
  expect(summary).toMatch(/\| Pass \| Files \| Changed lines \| Paths \| Ended \| Findings \| Tokens \|/);
  expect(summary).toMatch(
    new RegExp(`\\| ${FAILING_PASS} \\| ${failedFiles} \\| .*\`provider_unavailable\``),
  );
  expect(summary).toContain(`| their pass ended without a review | ${failedFiles} |`);
  expect(summary).toContain("bought the findings of 6 of 7 passes");
  // Progress was shown per pass while it ran.
  expect(run.history.some((h) => /pass \d of 7/.test(h.output?.title ?? ""))).toBe(true);
}, 300_000);
