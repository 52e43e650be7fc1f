// Path globs from `.github/loupe.yml` cannot stall the app: a pattern that makes a backtracking
// matcher take exponential time meets hundreds of kilobyte-long file names, and the event loop is
// never blocked for 100 ms from the webhook to the check run's completion (webhook, queue, config,
// file list, glob matching, fetch, the model loop, publishing); a pattern over the glob limits
// ends the run `action_required`, naming where it is and why. GitHub answers as over a socket
// (`network: true`), so the blocks measured are the app's own work, not nock's.

import { describe, expect, it } from "@jest/globals";
import nock from "nock";
import { GLOB_LIMITS } from "../../../src/config/glob.ts";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  OWNER,
  PR,
  pullRequestPayload,
  REPO,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { type EventLoopBlocks, probeEventLoopBlocks } from "../../support/event-loop-blocks.ts";
import { type GitHubMock, JSON_HEADERS, mockGitHub, socketBody } from "../../support/github-mock.ts";
import type { ProbotHarness } from "../../support/probot-harness.ts";
import type { ExamplePayload } from "../../support/webhook-examples.ts";

const app = useAppScenario({ harness: { botLogin: "loupe-test[bot]" } });

// The bound is on the test process's own synchronous work (GC and synchronous I/O included), not
// on the time other processes held the CPU, and is 100 ms at the quiet machine's speed, scaled
// when this thread runs slower: see event-loop-blocks.ts. Matching these names in one
// go breaks it several times over; the figures, and what the longest block left is, are in
// bench/README.md.
const LONG_FILES = 400;

// Each `*a` multiplies a backtracking matcher's work on a long run of `a`s that never ends in `b`.
const PATHOLOGICAL = `**/${"*a".repeat(12)}*b`;

/** The fixture's real files, then LONG_FILES added ones with 1–4 KB names of `a`s (never ending in b). */
function listedFiles(ref: string): Record<string, unknown>[] {
  const real = (app.fx.compareData().files as Record<string, unknown>[]).map((file) => ({ ...file }));
  const long = Array.from({ length: LONG_FILES }, (_, n) => ({
    filename: `generated/${"a".repeat(1024 + ((n * 7919) % 3072))}-${n}.txt`,
    status: "added",
    additions: 1,
    deletions: 0,
    changes: 1,
    patch: "@@ -0,0 +1 @@\n+generated",
  }));
  // Each name four times over, as GitHub lists a file (its name and three URLs).
  return [...real, ...long].map((file) => ({
    sha: "0".repeat(40),
    ...file,
    blob_url: `https://github.com/${OWNER}/${REPO}/blob/${ref}/${file.filename}`,
    raw_url: `https://github.com/${OWNER}/${REPO}/raw/${ref}/${file.filename}`,
    contents_url: `https://api.github.com/repos/${OWNER}/${REPO}/contents/${file.filename}?ref=${ref}`,
  }));
}

/** GET …/pulls/:n/files, 100 a page with GitHub's Link header (over 300 files, compare is cut), as over a socket. */
function mockListFiles(gh: GitHubMock, files: Record<string, unknown>[]): void {
  const path = `/repos/${OWNER}/${REPO}/pulls/${PR}/files`;
  const pages = Math.ceil(files.length / 100);
  for (let page = 1; page <= pages; page += 1) {
    const link: Record<string, string> =
      page < pages
        ? { link: `<https://api.github.com${path}?per_page=100&page=${page + 1}>; rel="next"` }
        : {};
    gh.scope
      .get(path)
      .query({ per_page: "100", ...(page > 1 ? { page: String(page) } : {}) })
      .reply(200, socketBody(files.slice((page - 1) * 100, page * 100)), { ...JSON_HEADERS, ...link });
  }
}

let warmedUp = false;

/**
 * Once per process, one ordinary review (the fixture's three files, a plain configuration) on a
 * harness of its own, before the first measured one. A fresh Node process pays once for what the
 * first webhook touches: lazily loaded modules (undici, the TLS root store, WebCrypto, the YAML
 * parser), their compilation and the JIT's first tiers — on a long-running server that is
 * start-up, not a stall of the event loop. Every measured review runs on a new harness (its own
 * Probot, token cache and queue), so all it inherits is what the process as a whole keeps.
 */
async function warmUp(): Promise<void> {
  if (warmedUp) return;
  warmedUp = true;
  const h = await app.start([{ body: stopTurn(review([finding({ severity: "low" })])) }]);
  const gh = mockReviewStart(app.fx, { network: true, config: "max_files: 1000\n" });
  mockPublish(gh).createReview(PR, [200, { id: 1 }]);
  await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
  await h.drain();
  expect(gh.completion()).toMatchObject({ status: "completed", conclusion: "success" });
  await app.provider.stop();
  expectCleanEnd(h, null, [gh]);
  nock.cleanAll(); // the check-run PATCH mock persists; the measured review has its own
}

interface Measured extends EventLoopBlocks {
  /** Whether the webhook had answered while the check run was not yet completed. */
  readonly answeredFirst: boolean;
}

/** Delivers the webhook and drains the queue, with the event loop's blocks measured throughout. */
async function deliverMeasured(h: ProbotHarness, gh: GitHubMock, payload: ExamplePayload): Promise<Measured> {
  const completed = () => gh.checkRunUpdates().filter((b) => b.status === "completed").length;
  const probe = probeEventLoopBlocks();
  try {
    await h.receive("pull_request", payload);
    const answeredFirst = completed() === 0;
    await h.drain();
    return { ...probe.stop(), answeredFirst };
  } finally {
    probe.stop(); // again on a failure: the timer must not outlive the test
  }
}

describe("a pathological glob in .github/loupe.yml", () => {
  it("is matched against hundreds of long file names without blocking, and the review completes", async () => {
    // Built before the warm-up, which collects it into the old generation: the young-generation
    // collections during the measured review then copy the app's objects, not megabytes of the test's.
    const files = listedFiles(app.fx.headSha);
    await warmUp();
    const h = await app.start([
      {
        body: toolCallsTurn([
          { id: "call_1", name: "read_repository_file", arguments: { path: "src/service.ts" } },
        ]),
      },
      { body: stopTurn(review([finding({ line: 2, severity: "high" })])) },
      // 403 files are more than one loop lists: the second pass answers at once.
      { body: stopTurn(review([])) },
    ]);
    // Every name is tried against the pattern in both lists (first in include), and none matches
    // it: all 403 files are reviewed, so every later step meets the long names too.
    const config = `max_files: 1000\npaths:\n  include: ['${PATHOLOGICAL}', '**']\n  exclude: ['${PATHOLOGICAL}']\n`;
    const gh = mockReviewStart(app.fx, {
      config,
      network: true,
      compareData: { ...app.fx.compareData(), files: files.slice(0, 300) },
    });
    mockListFiles(gh, files);
    mockPublish(gh).createReview(PR, [200, { id: 7 }]);

    const { maxBlockMs, boundMs, answeredFirst } = await deliverMeasured(
      h,
      gh,
      pullRequestPayload(app.fx, "opened"),
    );

    expect(answeredFirst).toBe(true);
    expect(gh.completion()).toMatchObject({ status: "completed", conclusion: "success" });
    expect(gh.reviewsPosted()[0]!.comments).toEqual([
      expect.objectContaining({ path: "src/service.ts", line: 2, side: "RIGHT" }),
    ]);
    // Every page was served (nock has none left); the model was told of all 403 files over two
    // passes, each shown as many whole names as its listing's size allows.
    expect(app.provider.requests).toHaveLength(3);
    const covered = [0, 2].map((i) =>
      Number(/it covers (\d+) of 403 changed files/.exec(app.provider.requests[i]!.bodyText)?.[1]),
    );
    expect(covered[0]! + covered[1]!).toBe(403);
    expect(app.provider.requests[0]!.bodyText).toMatch(/ and \d+ more \(use inspect_git_diff\)/);
    expect(maxBlockMs).toBeLessThan(boundMs);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("over the glob limits → action_required naming the pattern's path and why, without blocking", async () => {
    await warmUp();
    const h = await app.start([]);
    const gh = mockGitHub(OWNER, REPO, 1, { network: true }).token().createCheckRun(1).updateCheckRun(1);
    const tooMany = `**/${"*a".repeat(GLOB_LIMITS.wildcards)}*b`;
    gh.configFile(`paths:\n  include: ['src/**']\n  exclude: ['docs/**', '${tooMany}']\n`);

    const { maxBlockMs, boundMs, answeredFirst } = await deliverMeasured(
      h,
      gh,
      pullRequestPayload(app.fx, "opened"),
    );

    expect(answeredFirst).toBe(true);
    const done = gh.completion();
    expect(done.conclusion).toBe("action_required");
    expect((done.output as { summary: string }).summary).toContain(
      `\`paths.exclude.1\`: must have at most ${GLOB_LIMITS.wildcards} wildcards (\\*, ?, \\[)`,
    );
    expect(app.provider.requests).toEqual([]);
    expect(maxBlockMs).toBeLessThan(boundMs);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
