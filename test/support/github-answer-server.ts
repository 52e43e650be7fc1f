// A real HTTP server on 127.0.0.1 that answers the way a test says, and a real Octokit (Probot's)
// pointed at it: for what Loupe reads as a byte stream, where nock's fetch interception never
// ends a body that is read a turn at a time once it passes 64 KiB.

import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { ProbotOctokit } from "probot";
import type { GitHubClient } from "../../src/forges/github/octokit.ts";

export interface AnswerRequest {
  readonly method: string;
  readonly url: URL;
  readonly body: string;
  /** The server's own base URL (for Link headers). */
  readonly base: string;
}

export interface Answer {
  readonly status?: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface GitHubAnswerServer {
  /** An Octokit whose REST base URL is the server's root plus `apiPath` ("" or "/api/v3"). */
  octokit(apiPath?: string): GitHubClient;
  readonly requests: AnswerRequest[];
  stop(): Promise<void>;
}

export async function startGitHubAnswerServer(
  answer: (request: AnswerRequest) => Answer,
): Promise<GitHubAnswerServer> {
  nock.enableNetConnect("127.0.0.1");
  const requests: AnswerRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const request = {
        method: req.method ?? "GET",
        url: new URL(req.url ?? "/", base),
        body: Buffer.concat(chunks).toString("utf8"),
        base,
      };
      requests.push(request);
      const reply = answer(request);
      res
        .writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers })
        .end(reply.body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    octokit: (apiPath = "") =>
      new ProbotOctokit({
        baseUrl: `${root}${apiPath}`,
        auth: { token: "t" },
        retry: { enabled: false },
        throttle: { enabled: false },
      }) as GitHubClient,
    requests,
    stop: async () => {
      server.close();
      await once(server, "close");
    },
  };
}
