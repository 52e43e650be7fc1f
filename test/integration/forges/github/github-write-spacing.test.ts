// GITHUB_WRITE_SPACING_MS as Probot's Octokit applies it: a Probot built with Loupe's Octokit, as
// the App's server builds it, sends concurrent writes to a real HTTP server, which notes when each
// one arrives; the Action's client (`writeSpacingMs`, which the test worlds lower) the same way. Writes arrive at least the spacing apart, the writes that notify people three times
// that, reads are not held back; at the production default (1000 ms) as at a lowered one. Only
// lower bounds are asserted: the spacing a setting promises, never a speed.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { Probot } from "probot";
import { actionGitHubClient } from "../../../../src/action/github-client.ts";
import { DEFAULT_WRITE_SPACING_MS } from "../../../../src/forges/github/write-limiters.ts";
import { withWriteSpacing } from "../../../../src/forges/github/write-spacing.ts";
import { testPrivateKey } from "../../../support/probot-harness.ts";

let server: http.Server;
let base = "";
const arrivals: { method: string; url: string; at: number }[] = [];
/**
 * The limiter spaces when writes leave; they arrive after a connection's own delays, which differ
 * from one request to the next on a busy machine. A quarter of the spacing still tells 200 ms
 * from none, and the default's second from a lowered setting's.
 */
const slack = (spacingMs: number) => spacingMs / 4;

beforeAll(async () => {
  nock.enableNetConnect("127.0.0.1");
  server = http.createServer((req, res) => {
    arrivals.push({ method: req.method ?? "", url: req.url ?? "", at: performance.now() });
    req.resume();
    const token = { token: "ghs_spacing", expires_at: new Date(Date.now() + 3_600_000).toISOString() };
    const body = req.url?.endsWith("/access_tokens") ? token : {};
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function appClient(spacingMs: number) {
  const probot = new Probot({
    appId: 1,
    privateKey: testPrivateKey(),
    baseUrl: base,
    logLevel: "fatal",
    Octokit: withWriteSpacing(spacingMs),
  });
  const octokit = await probot.auth(1); // an installation's client, as context.octokit is
  // Its token first: the limiter spaces when writes may start, and writes that all wait for the
  // first token would reach the server together once it came.
  await octokit.request("GET /installation/repositories");
  return octokit;
}

/** The gaps between consecutive arrivals of the requests whose URL contains `part`. */
function gaps(part: string): number[] {
  const times = arrivals.filter((a) => a.url.includes(part)).map((a) => a.at);
  return times.slice(1).map((at, i) => at - times[i]!);
}

/**
 * From the first arrival to the last: one request held up on a busy machine shortens the gap after
 * it as much as it lengthens the one before, so the span keeps the spacing the limiter promised.
 */
const span = (part: string) => gaps(part).reduce((sum, gap) => sum + gap, 0);

/** Any of the clients under test: the App's installation client or the Action's. */
interface Requester {
  request(route: string, parameters: Record<string, unknown>): Promise<unknown>;
}

/**
 * Three writes and two that notify people sent at once on `repo` by a client spaced 200 ms: they
 * arrive 200 ms and 600 ms apart, and not the plugin's own second and three seconds.
 */
async function expectWritesSpaced200(octokit: Requester, repo: string): Promise<void> {
  await Promise.all([
    ...[1, 2, 3].map((n) => octokit.request(`PATCH /repos/${repo}/check-runs/{id}`, { id: n })),
    ...[1, 2].map((n) => octokit.request(`POST /repos/${repo}/pulls/{n}/reviews`, { n, body: "x" })),
  ]);
  const writes = `/repos/${repo}/check-runs/`;
  const notifying = `/repos/${repo}/pulls/`;
  expect(gaps(writes)).toHaveLength(2);
  // Two gaps of 200 ms: at least 300 over the span, where no spacing would give a few ms.
  expect(span(writes)).toBeGreaterThanOrEqual(2 * 200 - 2 * slack(200));
  // and not the plugin's own spacing: the setting took its place.
  expect(Math.max(...gaps(writes))).toBeLessThan(DEFAULT_WRITE_SPACING_MS);
  expect(gaps(notifying)).toHaveLength(1);
  expect(span(notifying)).toBeGreaterThanOrEqual(600 - slack(600));
  expect(Math.max(...gaps(notifying))).toBeLessThan(3 * DEFAULT_WRITE_SPACING_MS);
}

describe("GitHub write spacing (GITHUB_WRITE_SPACING_MS)", () => {
  it("spaces writes by the setting and the writes that notify people by three times it", async () => {
    await expectWritesSpaced200(await appClient(200), "o/r");
  });

  it("keeps the production default of one second between writes", async () => {
    expect(DEFAULT_WRITE_SPACING_MS).toBe(1000);
    const octokit = await appClient(DEFAULT_WRITE_SPACING_MS);
    await Promise.all([1, 2].map((n) => octokit.request("PATCH /repos/o/d/check-runs/{id}", { id: n })));
    expect(gaps("/repos/o/d/check-runs/")).toEqual([expect.any(Number)]);
    expect(gaps("/repos/o/d/check-runs/")[0]).toBeGreaterThanOrEqual(
      DEFAULT_WRITE_SPACING_MS - slack(DEFAULT_WRITE_SPACING_MS),
    );
  });

  it("spaces the Action's writes by the spacing it is given, in place of the plugin's", async () => {
    const octokit = actionGitHubClient({
      token: "ghs_action",
      baseUrl: base,
      warn: () => {},
      writeSpacingMs: 200,
    });
    await expectWritesSpaced200(octokit, "o/a");
  });

  it("does not hold reads back", async () => {
    const octokit = await appClient(60_000);
    // With a minute between writes, a read still goes out at once: the test would time out otherwise.
    await octokit.request("PATCH /repos/o/r/check-runs/{id}", { id: 9 });
    await octokit.request("GET /repos/o/r/pulls/{n}", { n: 1 });
    expect(arrivals.filter((a) => a.url.endsWith("/repos/o/r/pulls/1"))).toHaveLength(1);
  });
});
