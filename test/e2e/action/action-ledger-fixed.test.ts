// Two pushes of one pull request through the GitHub Action, run as the runner runs it, against
// the fake GitHub (its review threads over GraphQL) and a scripted model: the first run posts a
// finding on line 10; the second push changes line 10 and the model does not raise the finding
// again. Loupe resolves its thread, and what it reports says so: the check run's ledger line and
// title, and the agents' JSON (`ledger` and `resolved`), count the finding fixed, not still open.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import { runActionEntry } from "../../support/action-runner.ts";
import { review, stopTurn } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import type { FixtureRepo } from "../../support/git-fixture.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { createValuesRepo, VALUES, v10Finding } from "../../support/values-repo.ts";

const API_KEY = `test-key-action-ledger-${process.pid}`;
const FINDING = v10Finding();

let github: FakeGitHub;
let fixture: FixtureRepo;
const providers: ScriptedProvider[] = [];
const target = () => fakeGitHubTarget(github, "fixes");

beforeAll(async () => {
  fixture = createValuesRepo();
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "fixes", source: fixture });
}, 60_000);

afterAll(async () => {
  for (const provider of providers) await provider.stop();
  await github?.stop();
  fixture?.dispose();
});

async function runOn(action: string, turns: Parameters<typeof startScriptedProvider>[0]) {
  const provider = await startScriptedProvider(turns);
  providers.push(provider);
  const pr = github.addPullRequest({ owner: "octo", repo: "fixes", number: 1, headRef: "change-v10" });
  const token = github.workflowToken("octo", "fixes");
  const { installation: _none, ...payload } = pullRequestEvent(action, target(), pr);
  const run = await runActionEntry({
    eventName: "pull_request",
    payload,
    token,
    githubUrl: github.url,
    repository: "octo/fixes",
    inputs: {
      "openai-base-url": provider.baseURL,
      "openai-api-key": API_KEY,
      "review-model": "deepseek-v4-flash",
      "github-token": token,
      // The fake GitHub posts Loupe's reviews and threads as this account.
      "bot-login": "loupe[bot]",
      verify: "off",
    },
  });
  expect(run.code).toBe(0);
  const checks = github.checkRuns.filter((r) => r.repo === "fixes" && r.externalId === formatExternalId(1));
  return { run, output: checks.at(-1)?.history.at(-1)?.output, json: JSON.parse(run.files["result-file"]!) };
}

describe("a finding whose line a push changed, not raised again (the Action)", () => {
  it("is resolved, and counted fixed in the check run and the agents' JSON", async () => {
    const first = await runOn("opened", [{ body: stopTurn(review([FINDING])) }]);
    expect(first.output?.title).toBe("Loupe: 1 finding (1 medium)");
    expect(github.reviews.filter((r) => r.repo === "fixes").flatMap((r) => r.comments)).toHaveLength(1);

    fixture.checkout("change-v10");
    fixture.write("src/values.ts", VALUES.replace("v10 = 10;", "v10 = 10; // as named"));
    fixture.commit("v10 equals its name again");
    github.pushBranch("octo", "fixes", fixture, "change-v10");
    fixture.checkout("main");
    const second = await runOn("synchronize", [{ body: stopTurn(review([])) }]);

    expect(second.run.summary + (second.output?.summary ?? "")).toContain(
      "Resolved 1 of Loupe's earlier thread",
    );
    expect(second.output?.summary).toContain(
      "Finding ledger: 0 new this review, 0 still open, 1 fixed, 0 withdrawn, 0 dismissed.",
    );
    expect(second.output?.title).toBe("Loupe: no findings");
    expect(second.json.ledger).toMatchObject({ new: 0, open: 0, fixed: 1 });
    expect(second.json.resolved).toEqual([
      expect.objectContaining({ status: "fixed", path: "src/values.ts", line: 10 }),
    ]);
    expect(github.resolvedThreads.size).toBe(1);
  }, 90_000);
});
