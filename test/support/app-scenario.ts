// Shared setup for the GitHub App integration tests: one git server and one pull request fixture
// per file (`useAppScenario`), the standard GitHub mocks of a review, the example payloads adapted
// to the fixture, and the check that no secret reached GitHub, the provider or a log line.
//
//   const app = useAppScenario({ harness: { botLogin: "loupe-test[bot]" } });
//   const h = await app.start([{ body: stopTurn(review([])) }]);
//   … app.fx, app.git, app.provider …

import { afterAll, afterEach, beforeAll, expect } from "@jest/globals";
import nock from "nock";
import { createPullRequestFixture, type PullRequestFixture } from "./app-pull-request.ts";
import { type GitHttpServer, startGitHttpServer } from "./git-http-server.ts";
import { mockGuidance } from "./github-guidance-mock.ts";
import { BOT_LOGIN, type GitHubMock, INSTALLATION_TOKEN, mockGitHub } from "./github-mock.ts";
import {
  APP_ID,
  createProbotHarness,
  isolateNetwork,
  PROVIDER_KEY,
  type ProbotHarness,
  type ProbotHarnessOptions,
  releaseNetwork,
} from "./probot-harness.ts";
import {
  type ScriptedProvider,
  type ScriptedProviderOptions,
  type ScriptedTurn,
  startScriptedProvider,
} from "./scripted-provider.ts";
import { type ExamplePayload, webhookExample } from "./webhook-examples.ts";

export const OWNER = "Codertocat";
export const REPO = "Hello-World";
export const PR = 2;
/** The installation id of the pull_request examples (kept as GitHub documents it). */
export const INSTALLATION = 1;

/**
 * pull_request.<action> from @octokit/webhooks-examples, adapted: the installation is the
 * examples' own id 1 (added where an example has none), head/base SHAs are the fixture's.
 */
export function pullRequestPayload(
  fx: PullRequestFixture,
  action: string,
  headSha = fx.headSha,
): ExamplePayload {
  const payload = webhookExample("pull_request", action);
  payload.installation ??= { id: INSTALLATION, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" };
  payload.pull_request.head.sha = headSha;
  payload.pull_request.base.sha = fx.baseSha;
  return payload;
}

/** pulls.get for re-runs: the pull_request example's PR object with the fixture's SHAs. */
export function pullRequestData(fx: PullRequestFixture, overrides: Record<string, unknown> = {}) {
  const pr = pullRequestPayload(fx, "opened").pull_request;
  return { ...pr, ...overrides };
}

export interface ReviewMocks {
  readonly checkRunId?: number;
  /** null → 404 (defaults); a string → that file. */
  readonly config?: string | null;
  readonly headSha?: string;
  readonly owner?: string;
  readonly repo?: string;
  readonly installation?: number;
  readonly pullNumber?: number;
  /** Mock GET /app (the bot login lookup); off when the harness was given the login. */
  readonly app?: boolean;
  /** The compare answer, when not the fixture's own (for example, a 300-file page). */
  readonly compareData?: Record<string, unknown>;
  /** Guidance files on the default branch (path → text); without it, none (optional mocks). */
  readonly guidance?: Readonly<Record<string, string>>;
  /** Each GitHub answer after a turn of the event loop (see `MockGitHubOptions`). */
  readonly network?: boolean;
}

/** Token, check run, config, compare: what every review asks before the loop runs. */
export function mockReviewStart(fx: PullRequestFixture, options: ReviewMocks = {}): GitHubMock {
  const owner = options.owner ?? OWNER;
  const repo = options.repo ?? REPO;
  const head = options.headSha ?? fx.headSha;
  const gh = mockGitHub(owner, repo, options.installation ?? INSTALLATION, {
    network: options.network ?? false,
  }).token();
  gh.createCheckRun(options.checkRunId ?? 1).updateCheckRun(options.checkRunId ?? 1);
  if (options.config === undefined || options.config === null) gh.configMissing();
  else gh.configFile(options.config);
  gh.compare(`${fx.baseSha}...${head}`, options.compareData ?? fx.compareData(head));
  mockGuidance(gh, `/repos/${owner}/${repo}`, options.guidance ?? {}, {
    optional: options.guidance === undefined,
  });
  if (options.app === true) gh.app();
  return gh;
}

/** What Loupe reads before the loop of every review (its earlier comments and reviews on the PR). */
export function mockHistory(gh: GitHubMock, pullNumber = PR): GitHubMock {
  return gh.listReviewComments(pullNumber).listReviews(pullNumber);
}

/** The lists Loupe reads: its history before the loop, then the marker check before posting. */
export function mockPublish(gh: GitHubMock, pullNumber = PR, reviews: unknown[] = []): GitHubMock {
  return gh.listReviewComments(pullNumber).listReviews(pullNumber, reviews).listReviews(pullNumber, reviews);
}

/** Every test ends here: no mock left unused, and no secret anywhere it must not be. */
export function expectCleanEnd(h: ProbotHarness, provider: ScriptedProvider | null, gh: GitHubMock[]): void {
  expect(nock.pendingMocks()).toEqual([]);
  const texts = [
    ...gh.flatMap((g) => g.calls.map((c) => JSON.stringify(c.body ?? null))),
    ...(provider?.requests.map((r) => r.bodyText) ?? []),
    ...h.logs(),
  ];
  for (const secret of [INSTALLATION_TOKEN, PROVIDER_KEY]) {
    expect(texts.filter((t) => t.includes(secret))).toEqual([]);
  }
}

/** What a test file may set on every harness it starts; the provider and git server are wired in. */
export type HarnessSettings = Omit<ProbotHarnessOptions, "providerBaseURL" | "gitBaseUrl">;

export interface AppScenarioOptions {
  /** Repositories on the git server, each with refs/pull/<n>/head (default: Codertocat/Hello-World, #2). */
  readonly repositories?: readonly { readonly names: readonly string[]; readonly pullNumber: number }[];
  /** Changes the fixture before it is published (e.g. a second push the server must have). */
  readonly beforePublish?: (fx: PullRequestFixture) => void;
  /** Settings for every harness of the file; `start` may override them per test. */
  readonly harness?: HarnessSettings;
}

export interface AppScenario {
  /** The token-checking git server (available from beforeAll on). */
  readonly git: GitHttpServer;
  readonly fx: PullRequestFixture;
  /** The scripted provider of the current test's harness. */
  readonly provider: ScriptedProvider;
  /** A scripted provider with this script and a Probot harness pointed at it and the git server. */
  start(
    script: readonly ScriptedTurn[],
    settings?: HarnessSettings,
    providerOptions?: ScriptedProviderOptions,
  ): Promise<ProbotHarness>;
}

/**
 * Registers the file's jest hooks: beforeAll isolates the network, starts the git server (it
 * requires the installation token) and publishes the fixture; afterEach stops the test's provider
 * and drops its interceptors; afterAll stops the server, removes the fixture and restores nock
 * (test files share a jest worker — see `releaseNetwork`). Call it once, at the top of the file.
 */
export function useAppScenario(options: AppScenarioOptions = {}): AppScenario {
  let git: GitHttpServer | null = null;
  let fx: PullRequestFixture | null = null;
  let provider: ScriptedProvider | null = null;
  const repositories = options.repositories ?? [{ names: [`${OWNER}/${REPO}`], pullNumber: PR }];

  beforeAll(async () => {
    isolateNetwork();
    git = await startGitHttpServer({ requireToken: INSTALLATION_TOKEN });
    fx = createPullRequestFixture();
    options.beforePublish?.(fx);
    for (const { names, pullNumber } of repositories) fx.publish(git.root, names, pullNumber);
  });

  afterEach(async () => {
    await provider?.stop();
    provider = null;
    nock.cleanAll();
  });

  afterAll(async () => {
    await git?.stop();
    fx?.repo.dispose();
    releaseNetwork();
  });

  const ready = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(`useAppScenario: no ${what} yet (used outside a test?)`);
    return value;
  };
  return {
    get git() {
      return ready(git, "git server");
    },
    get fx() {
      return ready(fx, "pull request fixture");
    },
    get provider() {
      return ready(provider, "scripted provider (call start first)");
    },
    async start(script, settings = {}, providerOptions = {}) {
      const server = ready(git, "git server");
      provider = await startScriptedProvider(script, providerOptions);
      return createProbotHarness({
        ...options.harness,
        ...settings,
        providerBaseURL: provider.baseURL,
        gitBaseUrl: new URL(server.url("x")).origin,
      });
    },
  };
}

export { APP_ID, BOT_LOGIN };
