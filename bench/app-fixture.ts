// The world the load benchmarks run in: a fake GitHub with `repos` repositories (each in its own
// installation, as separate customers would be), each with `prsPerRepo` pull requests on their own
// branches, and a scripted model whose every answer comes after `delayMs`, so reviews take time.

import { stopTurn, toolCallsTurn } from "../test/support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../test/support/fake-github.ts";
import { type PullRequestFacts, pullRequestEvent } from "../test/support/fake-github-payloads.ts";
import { createRepo, type FixtureRepo } from "../test/support/git-fixture.ts";
import {
  type ScriptedProvider,
  type ScriptedTurn,
  startScriptedProvider,
} from "../test/support/scripted-provider.ts";

export interface BenchPullRequest {
  readonly owner: string;
  readonly repo: string;
  readonly facts: PullRequestFacts;
  /** A signed-ready webhook payload for pull_request.<action>. */
  payload(action: string): unknown;
}

export interface BenchWorld {
  readonly github: FakeGitHub;
  readonly provider: ScriptedProvider;
  readonly pulls: readonly BenchPullRequest[];
  stop(): Promise<void>;
}

const values = (n: number) => Array.from({ length: n }, (_, i) => `export const v${i + 1} = ${i + 1};`);

function fixtureWithBranches(branches: number): FixtureRepo {
  const repo = createRepo();
  repo.write("src/values.ts", `${values(60).join("\n")}\n`);
  for (let i = 0; i < 20; i++) repo.write(`src/module-${i}.ts`, `${values(40).join("\n")}\n`);
  repo.commit("base");
  for (let b = 1; b <= branches; b++) {
    repo.branch(`change-${b}`, "main");
    // Every branch changes line 10 (where the scripted finding points) and one line of its own.
    const text = values(60)
      .join("\n")
      .replace("v10 = 10;", `v10 = ${1000 + b};`);
    repo.write("src/values.ts", `${text.replace(`v${20 + b} = ${20 + b};`, `v${20 + b} = -${b};`)}\n`);
    repo.commit(`change ${b}`);
  }
  repo.checkout("main");
  return repo;
}

/** Tool-call and final turns alternating; any review may take any turn, each is valid alone. */
export function reviewScript(turns: number, delayMs: number | ((turn: number) => number)): ScriptedTurn[] {
  const final = {
    summary: "v10 changed.",
    findings: [
      {
        severity: "low",
        title: "v10 no longer equals its index",
        explanation: "Every other constant equals its index.",
        path: "src/values.ts",
        line: 10,
        evidence: "export const v10",
        recommendation: "Keep v10 = 10.",
      },
    ],
    notes: [],
  };
  return Array.from({ length: turns }, (_, i): ScriptedTurn => {
    const body =
      i % 2 === 0
        ? toolCallsTurn([
            { id: `call_${i}`, name: "read_repository_file", arguments: { path: "src/values.ts" } },
          ])
        : stopTurn(final);
    return { fault: "delay", ms: typeof delayMs === "number" ? delayMs : delayMs(i), next: { body } };
  });
}

export async function buildWorld(options: {
  readonly repos: number;
  /** The same for every repository, or one count per repository. */
  readonly prsPerRepo: number | readonly number[];
  readonly turns: number;
  readonly delayMs: number | ((turn: number) => number);
}): Promise<BenchWorld> {
  const github = await startFakeGitHub();
  const fixtures: FixtureRepo[] = [];
  const pulls: BenchPullRequest[] = [];
  for (let r = 1; r <= options.repos; r++) {
    const count = typeof options.prsPerRepo === "number" ? options.prsPerRepo : options.prsPerRepo[r - 1]!;
    const fixture = fixtureWithBranches(count);
    fixtures.push(fixture);
    const owner = `org${r}`;
    const repo = "service";
    github.addRepository({ owner, repo, source: fixture, installationId: r });
    const target = { htmlBase: github.url, owner, repo, defaultBranch: "main", installationId: r };
    for (let p = 1; p <= count; p++) {
      const facts = github.addPullRequest({
        owner,
        repo,
        number: p,
        headRef: `change-${p}`,
        title: `Change ${p}`,
      });
      pulls.push({ owner, repo, facts, payload: (action) => pullRequestEvent(action, target, facts) });
    }
  }
  const provider = await startScriptedProvider(reviewScript(options.turns, options.delayMs));
  return {
    github,
    provider,
    pulls,
    async stop() {
      await provider.stop();
      await github.stop();
      for (const fixture of fixtures) fixture.dispose();
    },
  };
}
