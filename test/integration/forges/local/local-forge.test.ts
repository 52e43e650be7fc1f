// The local forge is one Forge value like the others, with only what it has: no start (no webhook
// reaches it, the App does not serve it), and one review through the one review job
// (forge/run-review.ts) on the local host. Its report is the caller's output: the progress opens
// once the change is read, follows each round, and stops after the output is printed, even when
// printing fails (an invalid configuration is an error the command exits 2 with).

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { CliSettingsSchema } from "../../../../src/config/cli-settings.ts";
import { readEnvOrThrow } from "../../../../src/config/read-env.ts";
import { runReview } from "../../../../src/forge/run-review.ts";
import { LOCAL_FORGE, type LocalReview } from "../../../../src/forges/local/local-forge.ts";
import { createDefaultPorts } from "../../../../src/jobs/default-ports.ts";
import { review, stopTurn } from "../../../support/chat-turns.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../../support/git-fixture.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../../support/scripted-provider.ts";

let repo: FixtureRepo;
let provider: ScriptedProvider;

beforeAll(async () => {
  repo = createOneChangeRepo();
  repo.branch("invalid", "main");
  repo.write(".github/loupe.yml", "min_severity: urgent\n");
  repo.commit("an invalid configuration");
  repo.checkout("main");
  provider = await startScriptedProvider([{ body: stopTurn(review([], ["Read the diff."])) }]);
}, 60_000);

afterAll(async () => {
  await provider?.stop();
  repo?.dispose();
});

/** One review of `base`...change on the local forge; what its report did, in order. */
async function reviewLocally(base: string, print: LocalReview["print"]) {
  const env = {
    OPENAI_BASE_URL: provider.baseURL,
    OPENAI_API_KEY: "sk-local-forge-0123456789",
    REVIEW_MODEL: "deepseek-v4-flash",
    REVIEW_VERIFY: "off",
  };
  const { provider: model, limits } = readEnvOrThrow(CliSettingsSchema, env);
  const shown: string[] = [];
  const forge = await LOCAL_FORGE.review({
    ...{ repo: repo.dir, base, head: "change", env },
    signal: new AbortController().signal,
    timeoutMs: limits.timeoutMs,
    print: (outcome, configuration) => {
      shown.push(`printed ${outcome.kind} from ${configuration}`);
      print(outcome, configuration);
    },
    progress: () => {
      shown.push("progress");
      return { onRound: (round) => shown.push(`round ${round.round}`), stop: () => shown.push("stopped") };
    },
  });
  const settled = runReview(
    {
      request: { rerun: true, trigger: "command.full_review" },
      ...{ signal: new AbortController().signal, ports: createDefaultPorts({ provider: model, limits }) },
      ...{ authorPolicy: "everyone", now: Date.now, log: { info: () => {}, warn: () => {} } },
    },
    forge,
  );
  return { settled, shown };
}

describe("the local forge", () => {
  it("has no start: no webhook reaches it, and the App does not serve it", () => {
    expect(LOCAL_FORGE.id).toBe("local");
    expect("start" in LOCAL_FORGE).toBe(false);
  });

  it("reviews through the one review job: progress once the change is read, each round, then the output", async () => {
    const { settled, shown } = await reviewLocally("main", () => {});
    const { outcome } = await settled;
    expect(outcome.kind).toBe("reviewed");
    expect(shown).toEqual([
      "progress",
      "round 1",
      'printed reviewed from the defaults (no .github/loupe.yml at --base "main")',
      "stopped",
    ]);
  });

  it("stops the progress when printing the output fails, and the failure reaches the caller", async () => {
    const { settled, shown } = await reviewLocally("invalid", () => {
      throw new Error("the configuration is invalid");
    });
    await expect(settled).rejects.toThrow("the configuration is invalid");
    expect(shown.slice(0, 2)).toEqual(["progress", expect.stringMatching(/^printed config_invalid from /)]);
    expect(shown.at(-1)).toBe("stopped");
  });
});
