// Settings in layers, through Loupe as a real server process against the fake GitHub and the
// realistic model: the organisation's `.github/loupe.yml` (in `octo/.github`, read from its default
// branch) changes every repository's review without a file in them, and a push to it is seen at
// once; a repository overrides an unlocked key but not a locked one; a broken organisation file is
// one clear action_required naming the file and the key; a directory rule makes one folder's
// findings gate the check and another's only informational. Every check run lists the layers, and
// the document for machines carries them.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import type { CheckRun } from "../../support/fake-github-checks.ts";
import { pullRequestEvent, pushEvent } from "../../support/fake-github-payloads.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { readReviewJson } from "../../support/machine-checks.ts";
import { type KnownFinding, realisticResponder, requestKind } from "../../support/realistic-model.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-e2e-orgconf-${process.pid}-${Date.now()}`;
const API_KEY = `test-key-e2e-orgconf-${process.pid}-${Date.now()}`;

const PAYMENT_FINDING: KnownFinding = {
  path: "payments/fee.ts",
  line: 1,
  severity: "medium",
  titles: ["Fee computed in floating point", "`fee` loses cents to binary fractions"],
  code: "export const fee = (amount: number) => amount * 0.029 + 0.3;",
  impact: "a customer is charged a fraction of a cent too much or too little",
  recommendation: "Compute the fee in integer cents.",
};
const TEST_FINDING: KnownFinding = {
  path: "tests/fee.test.ts",
  line: 1,
  severity: "medium",
  titles: ["Test compares floats exactly", "Exact float comparison in the fee test"],
  code: "export const expected = 100 * 0.029 + 0.3;",
  impact: "the test fails or passes by rounding alone",
  recommendation: "Compare in integer cents.",
};

let github: FakeGitHub;
let provider: ScriptedProvider;
let loupe: LoupeProcess;
let fixture: FixtureRepo;

/** `main`, and two branches: `pay` changes only payments/, `test` only tests/. */
function createMonorepo(): FixtureRepo {
  const repo = createRepo();
  repo.write("payments/fee.ts", "export const fee = (amount: number) => amount * 0.03;\n");
  repo.write("tests/fee.test.ts", "export const expected = 3;\n");
  repo.commit("fees");
  repo.branch("pay", "main");
  repo.write("payments/fee.ts", `${PAYMENT_FINDING.code}\n`);
  repo.commit("the card fee");
  repo.branch("test", "main");
  repo.write("tests/fee.test.ts", `${TEST_FINDING.code}\n`);
  repo.commit("the fee's test");
  repo.checkout("main");
  return repo;
}

beforeAll(async () => {
  fixture = createMonorepo();
  github = await startFakeGitHub();
  for (const repo of [".github", "alpha", "beta"])
    github.addRepository({ owner: "octo", repo, source: fixture });
  github.addRepository({
    owner: "octo",
    repo: "gamma",
    source: fixture,
    config: "fail_on: none\ninstructions: Gamma's own focus is accessibility.\n",
  });
  // Another installation, with no `.github` repository: its settings are its own file alone.
  github.addRepository({
    owner: "solo",
    repo: "mono",
    source: fixture,
    installationId: 2,
    config: [
      "rules:",
      "  - paths: ['payments/**']",
      "    fail_on: medium",
      "    instructions: Amounts are integer cents here.",
      "  - paths: ['tests/**']",
      "    fail_on: none",
      "",
    ].join("\n"),
  });
  provider = await startScriptedProvider([], {
    responder: realisticResponder({ findings: [PAYMENT_FINDING, TEST_FINDING] }),
  });
  loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({ github, providerBaseURL: provider.baseURL, webhookSecret: SECRET, apiKey: API_KEY }),
  });
}, 60_000);

afterAll(async () => {
  await loupe?.stop();
  await provider?.stop();
  await github?.stop();
  fixture?.dispose();
});

const target = (owner: string, repo: string) => ({
  htmlBase: github.url,
  owner,
  repo,
  defaultBranch: "main",
  installationId: github.installationOf(owner, repo),
});

async function review(owner: string, repo: string, number: number, headRef: string): Promise<CheckRun> {
  const pr = github.addPullRequest({ owner, repo, number, headRef });
  const delivery = await deliverWebhook({
    url: loupe.webhookUrl,
    event: "pull_request",
    payload: pullRequestEvent("opened", target(owner, repo), pr),
    secret: SECRET,
  });
  expect(delivery.status).toBe(200);
  const externalId = formatExternalId(number);
  return await loupe.until(
    () =>
      github.checkRuns.find(
        (r) =>
          r.owner === owner &&
          r.repo === repo &&
          r.externalId === externalId &&
          r.history.at(-1)?.status === "completed",
      ),
    `the check run of ${owner}/${repo}#${number}`,
  );
}

/** The organisation commits its file and GitHub tells the App of the push to the default branch. */
async function pushOrganisationFile(text: string): Promise<void> {
  github.setConfig("octo", ".github", text);
  const delivery = await deliverWebhook({
    url: loupe.webhookUrl,
    event: "push",
    payload: pushEvent(target("octo", ".github"), "refs/heads/main"),
    secret: SECRET,
  });
  expect(delivery.status).toBe(200);
}

const ending = (run: CheckRun) => run.history.at(-1)!;
const summaryOf = (run: CheckRun) => ending(run).output?.summary ?? "";

describe("settings in layers", () => {
  it("an organisation file changes every repository's review without touching them", async () => {
    const before = await review("octo", "alpha", 1, "pay");
    expect(ending(before).conclusion).toBe("success");
    expect(summaryOf(before)).toContain("### Settings");
    expect(summaryOf(before)).not.toContain("organisation");

    await pushOrganisationFile(
      "fail_on: medium\nlocked: [fail_on]\ninstructions: The organisation's focus is money.\n",
    );
    // The App had read (and kept) "no organisation file" for this installation: the push made it read again.
    for (const repo of ["alpha", "beta"]) {
      const run = await review("octo", repo, 2, "pay");
      expect(ending(run).conclusion).toBe("failure");
      const summary = summaryOf(run);
      expect(summary).toContain("A finding reached this repository's `fail_on` severity.");
      expect(summary).toMatch(
        /\| organisation \| octo\/\.github: \.github\/loupe\.yml on its default branch \| `fail_on`, `locked`, `instructions` \|/,
      );
      const document = readReviewJson(ending(run).output?.text ?? "") as {
        settings: { layers: { layer: string; keys: string[] }[] };
      };
      expect(document.settings.layers.map((l) => l.layer)).toEqual(["operator", "organisation"]);
      expect(document.settings.layers[1]!.keys).toEqual(["fail_on", "locked", "instructions"]);
    }
    expect(github.requests.some((r) => r.url.includes("/repos/octo/.github/contents/"))).toBe(true);
    // Only ever the default branch: no ref, so never a pull request's or a fork's copy.
    expect(
      github.requests
        .filter((r) => r.url.includes("/repos/octo/.github/"))
        .every((r) => !r.url.includes("ref=")),
    ).toBe(true);
  });

  it("a repository overrides an unlocked key and cannot override a locked one", async () => {
    const run = await review("octo", "gamma", 1, "pay");
    // fail_on is locked by the organisation: gamma's `fail_on: none` is not applied.
    expect(ending(run).conclusion).toBe("failure");
    const summary = summaryOf(run);
    expect(summary).toMatch(
      /\| repository \| \.github\/loupe\.yml on the default branch \| `instructions` \| `fail_on` \(locked by the organisation\) \|/,
    );
    // instructions is not locked: gamma's own replace the organisation's in what the model is told.
    const asked = provider.requests.filter(
      (r) => requestKind(r) === "review" && JSON.stringify(r.body).includes("octo/gamma"),
    );
    expect(asked.length).toBeGreaterThan(0);
    const told = JSON.stringify(asked[0]!.body);
    expect(told).toContain("Gamma's own focus is accessibility.");
    expect(told).not.toContain("The organisation's focus is money.");
  });

  it("a broken organisation file is one clear action_required naming the file and the key", async () => {
    await pushOrganisationFile("fail_on: huge\n");
    const requestsBefore = provider.requests.length;
    const run = await review("octo", "beta", 3, "pay");
    const completions = run.history.filter((h) => h.status === "completed");
    expect(completions).toHaveLength(1);
    expect(ending(run).conclusion).toBe("action_required");
    expect(ending(run).output?.title).toBe("The organisation's Loupe settings are invalid");
    const summary = summaryOf(run);
    expect(summary).toContain("`octo/.github: .github/loupe.yml on its default branch`");
    expect(summary).toContain(
      "organisation's file: `fail_on`: must be one of critical, high, medium, low, info, none",
    );
    expect(provider.requests.length).toBe(requestsBefore);
    await pushOrganisationFile("fail_on: medium\nlocked: [fail_on]\n");
  });

  it("a directory rule makes one folder's findings gate the check and another's only informational", async () => {
    const payments = await review("solo", "mono", 1, "pay");
    expect(ending(payments).conclusion).toBe("failure");
    expect(summaryOf(payments)).toMatch(
      /\| repository `rules\[0\]` \| `payments\/\*\*` \| `fail_on`, `instructions` \| 1 \|/,
    );
    expect(summaryOf(payments)).toMatch(/\| repository `rules\[1\]` \| `tests\/\*\*` \| `fail_on` \| 0 \|/);

    // The rule's instructions reach the model with the changed files they apply to.
    const toldOf = (number: number) =>
      provider.requests
        .filter(
          (r) => requestKind(r) === "review" && JSON.stringify(r.body).includes(`solo/mono/pull/${number}`),
        )
        .map((r) => JSON.stringify(r.body));
    expect(toldOf(1).length).toBeGreaterThan(0);
    expect(toldOf(1)[0]).toContain(
      JSON.stringify(
        'Rule for ["payments/**"] (applies only to the changed files ["payments/fee.ts"]): "Amounts are integer cents here."',
      ).slice(1, -1),
    );

    const tests = await review("solo", "mono", 2, "test");
    expect(ending(tests).conclusion).toBe("success");
    expect(summaryOf(tests)).toMatch(/\| repository `rules\[1\]` \| `tests\/\*\*` \| `fail_on` \| 1 \|/);
    // Informational, not hidden: the finding is posted all the same.
    const posted = github.reviews.filter((r) => r.owner === "solo" && r.pullNumber === 2);
    expect(posted.flatMap((r) => r.comments.map((c) => c.path))).toEqual(["tests/fee.test.ts"]);
    const document = readReviewJson(ending(tests).output?.text ?? "") as {
      outcome: { gate_failed: boolean };
      settings: { rules: { layer: string; index: number; files: number }[] };
    };
    expect(document.outcome.gate_failed).toBe(false);
    expect(toldOf(2).length).toBeGreaterThan(0);
    expect(toldOf(2).every((body) => !body.includes("Amounts are integer cents here."))).toBe(true);
    expect(document.settings.rules).toEqual([
      { layer: "repository", index: 0, sets: ["fail_on", "instructions"], files: 0 },
      { layer: "repository", index: 1, sets: ["fail_on"], files: 1 },
    ]);
  });
});
