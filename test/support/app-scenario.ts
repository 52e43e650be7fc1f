// Shared setup for the GitHub App integration tests: one git server and one pull request fixture
// per file, the standard GitHub mocks of a review, the example payloads adapted to the fixture,
// and the check that no secret reached GitHub, the provider or a log line.

import { expect } from "@jest/globals";
import nock from "nock";
import type { PullRequestFixture } from "./app-pull-request.ts";
import { BOT_LOGIN, type GitHubMock, INSTALLATION_TOKEN, mockGitHub } from "./github-mock.ts";
import type { ProbotHarness } from "./probot-harness.ts";
import { APP_ID, PROVIDER_KEY } from "./probot-harness.ts";
import type { ScriptedProvider } from "./scripted-provider.ts";
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
}

/** Token, check run, config, compare: what every review asks before the loop runs. */
export function mockReviewStart(fx: PullRequestFixture, options: ReviewMocks = {}): GitHubMock {
  const owner = options.owner ?? OWNER;
  const repo = options.repo ?? REPO;
  const head = options.headSha ?? fx.headSha;
  const gh = mockGitHub(owner, repo, options.installation ?? INSTALLATION).token();
  gh.createCheckRun(options.checkRunId ?? 1).updateCheckRun(options.checkRunId ?? 1);
  if (options.config === undefined || options.config === null) gh.configMissing();
  else gh.configFile(options.config);
  gh.compare(`${fx.baseSha}...${head}`, fx.compareData(head));
  if (options.app === true) gh.app();
  return gh;
}

/** The lists Loupe reads before posting (fingerprints, then the marker check). */
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

export { APP_ID, BOT_LOGIN };
