// Octokit's retries as the operator sees them, with Probot's own Octokit (its retry plugin on,
// its waits scaled from seconds down to milliseconds) against a real HTTP server that answers 502:
// every attempt that will be retried is one info line with its number and the attempts allowed,
// every failure reaches GitHub's state, and a request after one that was retried starts again at
// attempt 1 (the plugin kept its count in options shared by all of a client's requests).

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { ProbotOctokit } from "probot";
import { observeGitHubRequests } from "../../../../src/forges/github/observe-requests.ts";
import type { GitHubClient } from "../../../../src/forges/github/octokit.ts";

let server: http.Server;
let base = "";
const hits: string[] = [];

beforeAll(async () => {
  nock.enableNetConnect("127.0.0.1");
  server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith("/ok")) res.writeHead(200, { "content-type": "application/json" }).end("{}");
    else res.writeHead(502, { "content-type": "text/html" }).end("<html>Bad Gateway</html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function observedClient() {
  const octokit = new ProbotOctokit({
    baseUrl: base,
    auth: { token: "t" },
    retry: { retryAfterBaseValue: 1 }, // the plugin's 1 s, 4 s, 9 s as 1, 4, 9 ms
    throttle: { enabled: false },
  }) as GitHubClient;
  const lines: Array<Record<string, unknown>> = [];
  const health: string[] = [];
  observeGitHubRequests(
    octokit,
    { failed: () => health.push("failed"), succeeded: () => health.push("ok") },
    { info: (obj) => lines.push(obj as Record<string, unknown>) },
  );
  return { octokit, lines, health };
}

describe("GitHub requests retried by Octokit", () => {
  it("logs each retried attempt, counted from 1 for every request", async () => {
    const { octokit, lines, health } = observedClient();
    for (const path of ["/repos/o/r/pulls/1", "/repos/o/r/pulls/1/comments"]) {
      await expect(octokit.request(`GET ${path}`)).rejects.toMatchObject({ status: 502 });
    }
    expect(hits.filter((hit) => hit.startsWith("GET /repos/o/r/pulls/1/comments"))).toHaveLength(4);
    const attempts = (url: string) =>
      lines.filter((line) => String(line.url).endsWith(url)).map((line) => line.attempt);
    expect(attempts("/pulls/1")).toEqual([1, 2, 3]);
    expect(attempts("/pulls/1/comments")).toEqual([1, 2, 3]);
    expect(lines[0]).toMatchObject({ event: "github_retry", status: 502, kind: "server_error", attempts: 4 });
    expect(health.filter((state) => state === "failed")).toHaveLength(8);
    await octokit.request("GET /ok");
    expect(health.at(-1)).toBe("ok");
  });
});
