// What a GitLab summary note and commit status say when a review ends, in GitLab's words: the
// review command in place of GitHub's "Re-run review" button, "merge request", GitLab as who
// answered, and no check run's conclusion beside the status's own state. The failure is a real
// one: GitLab's client against a server that answers 403.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { NO_SPEND } from "../../../../src/domain/spend.ts";
import { GITHUB_WORDS } from "../../../../src/forges/github/words.ts";
import { gitLabApi } from "../../../../src/forges/gitlab/gitlab-api.ts";
import { GITLAB_CI_WORDS, gitLabWords } from "../../../../src/forges/gitlab/words.ts";
import { endingFor } from "../../../../src/jobs/ending.ts";
import type { ReviewOutcome } from "../../../../src/pipeline/review-outcome.ts";

const TOOL = { name: "loupe", version: "0.0.0-test" } as const;
const HEAD = "0123456789abcdef0123456789abcdef01234567";
const WORDS = gitLabWords("loupe-bot");
/** What a GitLab note must never say: GitHub's names, its button, its check run, its conclusions. */
const GITHUB_ONLY = [/GitHub/, /Re-run/i, /check run/i, /pull request/i, /Conclusion:/, /`neutral`/];

let server: http.Server;
let refused: unknown;

beforeAll(async () => {
  server = http.createServer((_req, res) =>
    res.writeHead(403, { "content-type": "text/plain" }).end("403 Forbidden"),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = gitLabApi({
    url,
    token: "glpat-test",
    retry: { sleep: async () => {}, now: () => 0, deadline: 0 },
  });
  refused = await api.get("/projects/team%2Fapp/merge_requests/4").then(
    () => new Error("the request succeeded"),
    (error: unknown) => error,
  );
});

afterAll(() => {
  server.close();
});

function reviewed(over: { publishFailed: boolean }): ReviewOutcome {
  return {
    kind: "reviewed",
    result: {
      termination_reason: "final_review",
      review: null,
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      spend: NO_SPEND,
      rounds: 1,
      tool_calls: 0,
      duration_ms: 900,
      trace: [],
    },
    cost: { kind: "unpriced" },
    plan: null,
    headSha: HEAD,
    filesReviewed: 1,
    filesSkipped: 0,
    guidance: { enabled: true, files: [], skipped: [] },
    notes: [],
    publishFailed: over.publishFailed,
  };
}

/** The visible texts: the status description (the title), and the note without its hidden JSON. */
function visible(outcome: ReviewOutcome): string {
  const { output } = endingFor(outcome, WORDS, TOOL);
  const text = (output.text ?? "").replace(/<!--[\s\S]*?-->/g, "");
  return [output.title, output.summary, text].join("\n");
}

describe("a GitLab review's ending, in GitLab's words", () => {
  it("names GitLab as who refused, and the review command as the way to try again", () => {
    const shown = visible({ kind: "failed", error: refused });
    expect(shown).toContain("GitLab answered HTTP 403.");
    expect(shown).toContain("Comment `@loupe-bot review` to try again.");
    for (const word of GITHUB_ONLY) expect(shown).not.toMatch(word);
  });

  it("gives the command after a restart and after an invalid configuration, in the title too", () => {
    const restarted = endingFor({ kind: "cancelled", reason: { kind: "shutdown" } }, WORDS, TOOL).output;
    expect(restarted.title).toBe("Loupe restarted; comment @loupe-bot review");
    expect(restarted.summary).toContain("Comment `@loupe-bot review` to review this commit.");
    const invalid = visible({
      kind: "config_invalid",
      errors: [{ path: "fail_on", message: "not a severity" }],
    });
    expect(invalid).toContain("then comment `@loupe-bot review`.");
    for (const shown of [`${restarted.title}\n${restarted.summary}`, invalid])
      for (const word of GITHUB_ONLY) expect(shown).not.toMatch(word);
  });

  it("shows no check run's conclusion beside the commit status, even when the review could not be posted", () => {
    for (const publishFailed of [false, true]) {
      const shown = visible(reviewed({ publishFailed }));
      expect(shown).toContain(`Head \`${HEAD}\``);
      for (const word of GITHUB_ONLY) expect(shown).not.toMatch(word);
    }
  });

  it("keeps GitHub's words on GitHub: the button, and the conclusion", () => {
    const { output } = endingFor(reviewed({ publishFailed: true }), GITHUB_WORDS, TOOL);
    expect(output.summary).toContain(`Conclusion: \`neutral\` · head \`${HEAD}\``);
    const failed = endingFor({ kind: "failed", error: refused }, GITHUB_WORDS, TOOL).output;
    expect(failed.summary).toContain("Press **Re-run review** to try again.");
  });

  it("says how to review again when GitLab did not say who the token is", () => {
    const { output } = endingFor({ kind: "failed", error: refused }, gitLabWords(null), TOOL);
    expect(output.summary).toContain("Mention Loupe's user with `review` to try again.");
  });

  it("tells a pipeline's reader to retry the job, since no server reads commands there", () => {
    const { output } = endingFor({ kind: "failed", error: refused }, GITLAB_CI_WORDS, TOOL);
    expect(output.summary).toContain("Retry the Loupe job of this pipeline to try again.");
    for (const word of GITHUB_ONLY) expect(output.summary).not.toMatch(word);
  });
});
