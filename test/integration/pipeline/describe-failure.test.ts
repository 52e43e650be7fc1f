// The sentence a check run, a review note or the action's summary gives for GitHub's failures,
// from real Octokit requests: to a port where nothing listens (GitHub never answered, though
// Octokit reports a status 500) and to a server that answers 502.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "@jest/globals";
import { Octokit } from "@octokit/rest";
import { forTheAction } from "../../../src/action/action-report.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { failureOutput } from "../../../src/jobs/ending-texts.ts";
import { describeFailure } from "../../../src/pipeline/describe-failure.ts";
import { freePort } from "../../support/loupe-process.ts";

async function failureOf(baseUrl: string): Promise<unknown> {
  const octokit = new Octokit({ baseUrl, request: { retries: 0 } });
  return octokit.rest.pulls.get({ owner: "o", repo: "r", pull_number: 1 }).then(
    () => {
      throw new Error("the request succeeded");
    },
    (error: unknown) => error,
  );
}

describe("describeFailure", () => {
  it("says GitHub did not answer, and the host, when the connection is refused", async () => {
    const port = await freePort();
    const error = await failureOf(`http://127.0.0.1:${port}`);
    expect(describeFailure(error, GITHUB_WORDS.forge)).toBe(
      `GitHub did not answer: connection refused to \`127.0.0.1:${port}\`.`,
    );
  });

  it("gives GitHub's status when it answered", async () => {
    const server = http.createServer((_req, res) => res.writeHead(502).end("bad gateway"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const error = await failureOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect(describeFailure(error, GITHUB_WORDS.forge)).toBe("GitHub answered HTTP 502.");
    } finally {
      server.close();
    }
  });

  it("tells the action's user to re-run the job, not to press the App's button", async () => {
    const port = await freePort();
    const output = failureOutput(await failureOf(`http://127.0.0.1:${port}`), GITHUB_WORDS);
    expect(output.summary).toContain("Press **Re-run review**");
    const inAction = forTheAction({ conclusion: "neutral", output, remember: false });
    expect(inAction.output.summary).toBe(
      `GitHub did not answer: connection refused to \`127.0.0.1:${port}\`. Re-run this job to try again.`,
    );
  });
});
