// The organisation's file on GitHub, read with real Octokit requests: from the fake GitHub, the
// `.github/loupe.yml` of `<owner>/.github` on its default branch (no ref); no layer when that
// repository is not in the installation (GitHub's 404) or the token may not read it (403); any
// other failure is GitHub's, and is thrown for the review to report.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Octokit } from "@octokit/rest";
import type { GitHubClient } from "../../../../src/forges/github/octokit.ts";
import { readOrganisationConfigFile } from "../../../../src/forges/github/organisation-config-file.ts";
import { type FakeGitHub, startFakeGitHub } from "../../../support/fake-github.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../../support/git-fixture.ts";

let github: FakeGitHub;
let fixture: FixtureRepo;

beforeAll(async () => {
  fixture = createOneChangeRepo();
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: ".github", source: fixture, config: "fail_on: high\n" });
  github.addRepository({ owner: "octo", repo: "app", source: fixture });
  // Another installation's `.github`: octo2/app's token cannot read it.
  github.addRepository({
    owner: "octo2",
    repo: ".github",
    source: fixture,
    config: "fail_on: low\n",
    installationId: 3,
  });
  github.addRepository({ owner: "octo2", repo: "app", source: fixture, installationId: 4 });
});

afterAll(async () => {
  await github?.stop();
  fixture?.dispose();
});

const client = (baseUrl: string, token = "t") =>
  new Octokit({ baseUrl, auth: token, request: { retries: 0 } }) as unknown as GitHubClient;

async function answering(status: number, body: object): Promise<{ url: string; close(): void }> {
  const server = http.createServer((_req, res) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body)),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe("the organisation's file on GitHub", () => {
  it("is <owner>/.github's .github/loupe.yml from its default branch", async () => {
    const octokit = client(`${github.url}/api/v3`, github.workflowToken("octo", "app"));
    expect(await readOrganisationConfigFile(octokit, "octo")).toEqual({
      file: { kind: "found", text: "fail_on: high\n" },
      source: "octo/.github: .github/loupe.yml on its default branch",
    });
    const read = github.requests.filter((r) => r.url.includes("/repos/octo/.github/contents/"));
    expect(read).toHaveLength(1);
    expect(read[0]!.url).not.toContain("ref=");
  });

  it("is no layer when the installation does not include <owner>/.github (404)", async () => {
    const octokit = client(`${github.url}/api/v3`, github.workflowToken("octo2", "app"));
    expect(await readOrganisationConfigFile(octokit, "octo2")).toBeNull();
  });

  it("is no layer when the token may not read it (403), and GitHub's failure otherwise", async () => {
    const forbidden = await answering(403, { message: "Resource not accessible by integration" });
    const broken = await answering(500, { message: "Server Error" });
    try {
      expect(await readOrganisationConfigFile(client(forbidden.url), "octo")).toBeNull();
      await expect(readOrganisationConfigFile(client(broken.url), "octo")).rejects.toMatchObject({
        status: 500,
      });
    } finally {
      forbidden.close();
      broken.close();
    }
  });
});
