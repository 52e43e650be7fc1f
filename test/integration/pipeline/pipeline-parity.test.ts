// The App and `loupe review` run one review pipeline, so for the same change and the same model
// answers they plan the same review: this runs the App (Probot, GitHub mocked with nock, the
// repository over a real git http-backend) and the CLI (the same repository by its URL) against
// two scripted providers with one script, and compares what the App posted with what the CLI says
// the App would post — body, inline comments and their lines, and where each finding went. The
// App does it twice: with its repository work in this thread, and in worker threads as its server does.

import { describe, expect, it } from "@jest/globals";
import { runReviewCommand } from "../../../src/cli/review-command.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { LOCAL_WORDS } from "../../../src/forges/local/words.ts";
import {
  expectCleanEnd,
  type HarnessSettings,
  mockPublish,
  mockReviewStart,
  OWNER,
  pullRequestPayload,
  REPO,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { INSTALLATION_TOKEN } from "../../support/github-mock.ts";
import { type ScriptedTurn, startScriptedProvider } from "../../support/scripted-provider.ts";

const app = useAppScenario({ harness: { botLogin: "loupe-test[bot]" } });

const script = (): ScriptedTurn[] => [
  { body: toolCallsTurn([{ id: "d1", name: "inspect_git_diff", arguments: {} }]) },
  {
    body: stopTurn(
      review(
        [
          finding({ line: 2, title: "Validation occurs after the write" }),
          finding({
            path: "README.md",
            line: 1,
            severity: "medium",
            evidence: "# Hello",
            title: "A file the change does not touch",
          }),
          finding({
            path: "src/util.ts",
            line: 1,
            severity: "info",
            title: "Below the default threshold",
            evidence: "export",
          }),
          finding({
            path: "src/service.ts",
            line: 2,
            end_line: 3,
            severity: "low",
            title: "A range in one hunk",
          }),
        ],
        ["Checked the diff."],
      ),
    ),
  },
];

interface CliPlan {
  readonly body: string;
  readonly comments: readonly Record<string, unknown>[];
  readonly placement: string;
  readonly postable: boolean;
}

async function cliPlan(repoUrl: string, base: string, head: string): Promise<CliPlan> {
  const provider = await startScriptedProvider(script());
  try {
    let out = "";
    const code = await runReviewCommand(["--repo", repoUrl, "--base", base, "--head", head], {
      stdout: (text) => {
        out += text;
      },
      stderr: () => {},
      env: {
        OPENAI_BASE_URL: provider.baseURL,
        OPENAI_API_KEY: "sk-parity-0123456789abcdefghij",
        REVIEW_MODEL: "deepseek-v4-flash",
        REVIEW_VERIFY: "off",
        LOUPE_GIT_TOKEN: INSTALLATION_TOKEN,
      },
    });
    expect(code).toBe(0);
    return (JSON.parse(out) as { plan: CliPlan }).plan;
  } finally {
    await provider.stop();
  }
}

/** What the App posted for the fixture's change, and its check run's summary. */
async function appReview(settings: HarnessSettings) {
  const h = await app.start(script(), settings);
  try {
    const gh = mockReviewStart(app.fx, { checkRunId: 7 });
    mockPublish(gh).createReview(2);
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    const [posted] = gh.reviewsPosted();
    const summary = (gh.completion(7).output as { summary: string }).summary;
    expectCleanEnd(h, app.provider, [gh]);
    return { posted: posted!, summary };
  } finally {
    await h.close();
  }
}

describe("the App and loupe review plan the same review", () => {
  it("for the same change and the same model answers", async () => {
    await expectSamePlan(await appReview({}));
  });

  it("with the App's repository work in worker threads, as its server runs it", async () => {
    await expectSamePlan(await appReview({ isolation: {} }));
  });
});

async function expectSamePlan({ posted, summary }: { posted: Record<string, unknown>; summary: string }) {
  const url = app.git.url(`${OWNER}/${REPO}`);
  const plan = await cliPlan(url, app.fx.baseSha, app.fx.headSha);

  // The App's body ends with the marker of the state it reviewed (for its next incremental
  // review), and its review marker names its check run; the CLI has neither run nor history.
  // Each names the change in its forge's words: a pull request on GitHub, a change locally.
  const appBody = String(posted.body)
    .replace(/\n+<!-- loupe:reviewed [^>]*-->$/, "")
    .replace(`run=7 -->`, `run=0 -->`)
    .replaceAll(`this ${GITHUB_WORDS.change}`, `this ${LOCAL_WORDS.change}`);
  expect(plan.postable).toBe(true);
  expect(appBody).toBe(plan.body);
  expect(posted.comments).toEqual(plan.comments);
  expect(plan.comments.map((c) => [c.path, c.start_line, c.line])).toEqual([
    ["src/service.ts", undefined, 2],
    ["src/service.ts", 2, 3],
  ]);
  expect(plan.body).toContain("A file the change does not touch");
  expect(summary).toContain(`Findings: ${plan.placement}`);
  expect(plan.placement).toBe(
    "2 inline, 1 in the review body, 0 already posted earlier, 1 below min_severity; 1 note.",
  );
}
