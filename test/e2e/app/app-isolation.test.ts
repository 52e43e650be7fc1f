// Repository work never holds the server's event loop: Loupe as a real server process (`node
// src/server.ts`) reviews a hostile repository — one directory of 400,000 entries in every commit,
// seconds of work and over a hundred megabytes of heap to read — in its repository worker, while a
// separate process samples /healthz and signed webhooks (latency-probe.ts). With the default heap
// the review completes; with a small one the worker runs out of memory, the review ends
// `worker_out_of_memory` with a completed check run, and the next review gets a new worker.
//
// The only time bound asserted is the one the server promises: p99 under 100 ms, for each kind of
// request, measured on the server's own time (the sampler leaves out the time its main thread
// waited for a CPU, so a busy machine does not count — see latency-sampler.ts).

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { TERMINATION_SENTENCES } from "../../../src/domain/outcome.ts";
import { stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import type { CheckRun } from "../../support/fake-github-checks.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { expectResponsive, sampled } from "../../support/latency-sampling.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import {
  type ScriptedProvider,
  type ScriptedTurn,
  startScriptedProvider,
} from "../../support/scripted-provider.ts";
import { reviewThroughServer } from "../../support/server-review.ts";
import { createWideTreeRepo, type WideTreeRepo } from "../../support/wide-tree-repo.ts";

const SECRET = `whsec-iso-${process.pid}-${Date.now()}`;
const API_KEY = `test-key-iso-${process.pid}-${Date.now()}`;
const WIDE_ENTRIES = 400_000;

let github: FakeGitHub;
let values: FixtureRepo;
let wide: WideTreeRepo;

const finalReview = {
  summary: "v10 changed.",
  findings: [
    {
      severity: "medium",
      title: "v10 no longer equals its name",
      explanation: "Every other constant equals its index.",
      path: "src/values.ts",
      line: 10,
      evidence: "export const v10 = 100;",
      recommendation: "Restore 10.",
    },
  ],
  notes: [],
};
const reviewScript = (): ScriptedTurn[] => [
  { body: toolCallsTurn([{ id: "c1", name: "list_repository_files", arguments: { path: "generated" } }]) },
  { body: stopTurn(finalReview) },
];

beforeAll(async () => {
  values = createRepo();
  const lines = (v10: number) =>
    Array.from({ length: 30 }, (_, i) => `export const v${i + 1} = ${i === 9 ? v10 : i + 1};\n`).join("");
  values.write("src/values.ts", lines(10));
  values.commit("values");
  values.branch("change");
  values.write("src/values.ts", lines(100));
  values.commit("v10 is 100");
  values.checkout("main");
  wide = createWideTreeRepo(WIDE_ENTRIES);
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "values", source: values });
  github.addRepository({ owner: "octo", repo: "wide", source: wide.repo });
}, 120_000);

afterAll(async () => {
  await github?.stop();
  values?.dispose();
  wide?.repo.dispose();
});

/** Loupe and its scripted model, for the tests of one describe block. */
function useLoupe(script: () => ScriptedTurn[], extra: Record<string, string>) {
  const world: { loupe: LoupeProcess | null; provider: ScriptedProvider | null } = {
    loupe: null,
    provider: null,
  };
  beforeAll(async () => {
    world.provider = await startScriptedProvider(script());
    world.loupe = await startLoupeProcess({
      command: "node",
      env: fakeWorldEnv({
        github,
        providerBaseURL: world.provider.baseURL,
        webhookSecret: SECRET,
        apiKey: API_KEY,
        extra,
      }),
    });
  }, 60_000);
  afterAll(async () => {
    await world.loupe?.stop();
    await world.provider?.stop();
  });
  return world;
}

/** Opens a pull request, delivers its webhook, and waits for its check run to complete. */
function review(loupe: LoupeProcess, repo: string, number: number, headRef: string): Promise<CheckRun> {
  return reviewThroughServer({ github, loupe, secret: SECRET, repo, number, headRef });
}

describe("a hostile repository, with the default worker heap", () => {
  const world = useLoupe(reviewScript, {});

  it("is reviewed in a worker while /healthz and signed webhooks are answered at p99 under 100 ms", async () => {
    const loupe = world.loupe!;
    const [run, samples] = await sampled(loupe, SECRET, () => review(loupe, "wide", 1, wide.headRef));
    const final = run.history.at(-1)!;
    expect(final.conclusion).toBe("success");
    expect(final.output?.summary).toContain(TERMINATION_SENTENCES.final_review);
    expect(github.reviews.filter((r) => r.repo === "wide")).toHaveLength(1);
    expectResponsive(samples, "wide tree, default heap");
  });
});

describe("a worker over its heap limit", () => {
  // 64 MiB: a small repository's review fits (Loupe's modules take about 25), the wide tree does
  // not. One worker, so the review after the stopped one runs on its replacement.
  const world = useLoupe(() => [{ body: stopTurn(finalReview) }], {
    REVIEW_WORKER_MEMORY_MB: "64",
    REVIEW_WORKERS: "1",
  });

  it("ends that review worker_out_of_memory with a completed check run; the server answers throughout and the next review gets a new worker", async () => {
    const loupe = world.loupe!;
    const [[stopped, next], samples] = await sampled(loupe, SECRET, async () => [
      await review(loupe, "wide", 2, wide.headRef),
      await review(loupe, "values", 3, "change"),
    ]);

    const ended = stopped.history.at(-1)!;
    expect(ended.conclusion).toBe("neutral");
    expect(ended.output?.title).toBe("Loupe: review incomplete (worker_out_of_memory)");
    expect(ended.output?.summary).toContain(TERMINATION_SENTENCES.worker_out_of_memory);
    expect(github.reviews.filter((r) => r.pullNumber === 2)).toEqual([]);
    expect(world.provider!.requests).toHaveLength(1); // the wide review never reached the model

    expect(next.history.at(-1)!.conclusion).toBe("success");
    expect(github.reviews.filter((r) => r.pullNumber === 3)).toHaveLength(1);
    const workerEnded = loupe
      .output()
      .split("\n")
      .filter((line) => line.includes("repository worker ended"));
    expect(workerEnded).toHaveLength(1);
    expect(workerEnded[0]).toContain('"reason":"worker_out_of_memory"');
    expect(loupe.alive()).toBe(true);
    expectResponsive(samples, "wide tree, worker out of memory, then a review on its replacement");
  });
});
