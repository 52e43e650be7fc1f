// Publishing a review on GitLab lands every finding exactly once, whatever GitLab's bulk publish
// does (the fake GitLab behaves as GitLab's source: fake-gitlab-drafts.ts): a draft whose line
// GitLab refuses only when it publishes it, a 500 after a partial publish with every draft left,
// a retry after Loupe stopped in the middle of publishing, and an earlier crashed run's drafts.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { ChangedFile } from "../../../../src/domain/changed-file.ts";
import { gitLabApi } from "../../../../src/forges/gitlab/gitlab-api.ts";
import { gitLabHost } from "../../../../src/forges/gitlab/gitlab-host.ts";
import type { HostComment, HostReview } from "../../../../src/host/pull-request-host.ts";
import { publishStep } from "../../../../src/pipeline/publish-step.ts";
import type { PlannedReview } from "../../../../src/pipeline/review-ports.ts";
import type { ScopeStep } from "../../../../src/pipeline/scope-step.ts";
import type { LedgerEntry } from "../../../../src/review/ledger.ts";
import { fetchWorkspace } from "../../../../src/workspace/fetch.ts";
import { type FakeGitLab, startFakeGitLab } from "../../../support/fake-gitlab.ts";
import { createRepo, type FixtureRepo } from "../../../support/git-fixture.ts";

const LINES = ["one", "two", "three", "four", "five", "six"].map((w) => `export const ${w} = 1;`);
const HEAD = "0123456789abcdef0123456789abcdef01234567";
let repo: FixtureRepo;
let gitlab: FakeGitLab;
let iid = 0;

beforeAll(async () => {
  repo = createRepo();
  repo.write("src/lines.ts", `${LINES.join("\n")}\n`);
  repo.write("src/other.ts", `${LINES.join("\n")}\n`);
  repo.commit("lines");
  repo.branch("change");
  repo.write(
    "src/lines.ts",
    `${LINES.slice(0, 2).join("\n")}\nexport const added = 2;\n${LINES.slice(3).join("\n")}\n`,
  );
  repo.write("src/other.ts", `${LINES.join("\n")}\nexport const seven = 7;\n`);
  repo.commit("change");
  repo.checkout("main");
  gitlab = await startFakeGitLab();
  gitlab.addProject({ path: "team/app", source: repo });
}, 60_000);

afterAll(async () => {
  await gitlab?.stop();
  repo?.dispose();
});

/** A host on a new merge request; `crashAfter` stops the process's requests after that one's answer. */
async function makeHost(iidOf?: number, crashAfter?: (method: string, url: string) => boolean) {
  const number = iidOf ?? ++iid;
  const mr =
    iidOf === undefined
      ? gitlab.addMergeRequest({ project: "team/app", iid: number, sourceBranch: "change" })
      : null;
  let crashed = false;
  const crashing: typeof fetch = async (input, init) => {
    if (crashed) throw new Error("Loupe stopped");
    const response = await fetch(input, init);
    if (crashAfter?.(init?.method ?? "GET", String(input)) === true) {
      crashed = true;
      throw new Error("Loupe stopped before it read the answer");
    }
    return response;
  };
  const host = gitLabHost({
    api: gitLabApi({
      url: gitlab.url,
      token: gitlab.token,
      retry: { sleep: async () => {}, now: () => 0, deadline: Number.POSITIVE_INFINITY },
      fetch: crashing,
    }),
    target: { owner: "team", repo: "app", pullNumber: number },
    url: gitlab.url,
    token: gitlab.token,
    fetchWorkspace: (input) => fetchWorkspace({ ...input, maxBytes: 50_000_000 }),
    self: async () => gitlab.username,
  });
  await host.changes(await host.pullRequest());
  return { host, mr, iid: number };
}

const fp = (n: number) => `<!-- loupe:fp=${n.toString(16).padStart(16, "0")} -->`;
const comment = (n: number, path: string, line: number): HostComment => ({
  path,
  line,
  body: `Finding ${n}.\n\n${fp(n)}`,
});
const COMMENTS = [
  comment(1, "src/lines.ts", 3),
  comment(2, "src/lines.ts", 4),
  comment(3, "src/other.ts", 7),
];
/** A plan of `open` findings already on the ledger, with nothing new to post. */
const emptyPlan = (open: number): PlannedReview => ({
  comments: [],
  body: "",
  allInBody: () => "",
  postable: true,
  findingsBySeverity: { critical: 0, high: open, medium: 0, low: 0, info: 0 },
  placement: "",
  gateFailed: false,
  raised: new Set(),
  ledger: {
    fresh: open,
    counts: { open, fixed: 0, withdrawn: 0, dismissed: 0 },
    dismissedRepeats: 0,
    dismissals: [],
  },
  findings: [],
  resolved: [],
});
const review = (run: number, comments: readonly HostComment[] = COMMENTS): HostReview => {
  const marker = `<!-- loupe:review sha=${HEAD} run=${run} -->`;
  return {
    headSha: HEAD,
    marker,
    body: `The review.\n\n${marker}`,
    comments,
    allInBody: () => `Every finding here.\n\n${marker}`,
  };
};

/** How many of the bot's notes on the merge request hold each text. */
function landed(mrIid: number, texts: readonly string[]): number[] {
  const notes = gitlab.notes.filter((n) => n.iid === mrIid && n.author === gitlab.username);
  return texts.map((text) => notes.filter((n) => n.body.includes(text)).length);
}

const everyFindingOnce = (mrIid: number, run: number) =>
  expect(landed(mrIid, [`loupe:review sha=${HEAD} run=${run} -->`, fp(1), fp(2), fp(3)])).toEqual([
    1, 1, 1, 1,
  ]);

describe("publishing a review on GitLab", () => {
  it("publishes drafts on their lines, and finds the review already there on a retry", async () => {
    const { host, iid: n } = await makeHost();
    expect(await host.publisher!.publish(review(1))).toMatchObject({ kind: "posted", unplaced: 0 });
    everyFindingOnce(n, 1);
    expect(gitlab.notes.filter((x) => x.iid === n && x.type === "DiffNote")).toHaveLength(3);
    expect(await host.publisher!.publish(review(1))).toMatchObject({ kind: "already_posted" });
    everyFindingOnce(n, 1);
    expect(gitlab.drafts).toEqual([]);
  });

  it("posts a finding whose draft GitLab dropped at publish in one note naming it, the rest on their lines", async () => {
    const { host, mr, iid: n } = await makeHost();
    // GitLab's diff of src/other.ts is not the one Loupe placed the comment on (it changed since):
    // the draft is accepted, then not created at publish, and the discussion is refused (400).
    mr!.diffs = mr!.diffs.filter((d) => d.new_path !== "src/other.ts");
    const published = await host.publisher!.publish(review(2));
    expect(published).toMatchObject({ kind: "posted", allInBody: false, unplaced: 1 });
    everyFindingOnce(n, 2);
    const unplaced = gitlab.notes.find((x) => x.iid === n && x.body.includes(fp(3)))!;
    expect(unplaced.type).toBeNull();
    expect(unplaced.body).toContain("1 finding could not be placed on its line");
    expect(unplaced.body).toContain("`src/other.ts:7`");
    expect(
      gitlab.requests.some((r) => r.url.endsWith(`/merge_requests/${n}/discussions`) && r.status === 400),
    ).toBe(true);
    expect(gitlab.drafts).toEqual([]);
  });

  it("after a 500 part way through the publish, deletes the drafts left and posts only what is missing", async () => {
    const { host, iid: n } = await makeHost();
    gitlab.failPublishAt(3); // the body and the first comment are created, then GitLab fails
    const published = await host.publisher!.publish(review(3));
    expect(published).toMatchObject({ kind: "posted", unplaced: 0 });
    expect(
      gitlab.requests.some((r) => r.url.includes(`/${n}/draft_notes/bulk_publish`) && r.status === 500),
    ).toBe(true);
    everyFindingOnce(n, 3);
    expect(gitlab.notes.filter((x) => x.iid === n && x.type === "DiffNote")).toHaveLength(3);
    expect(gitlab.drafts).toEqual([]);
  });

  it.each([
    [
      "after its drafts were saved",
      (method: string, url: string) => method === "POST" && /\/draft_notes$/.test(url),
    ],
    ["after the publish", (_method: string, url: string) => url.endsWith("/bulk_publish")],
    ["after the publish failed part way", (_method: string, url: string) => url.endsWith("/bulk_publish")],
  ])("lands every finding once when a retry follows a stop %s", async (name, crashAfter) => {
    const first = await makeHost(undefined, crashAfter);
    if (name.includes("part way")) gitlab.failPublishAt(2);
    await expect(first.host.publisher!.publish(review(4))).rejects.toThrow("Loupe stopped");
    const retry = await makeHost(first.iid);
    expect(await retry.host.publisher!.publish(review(4))).toMatchObject({
      kind: expect.stringMatching(/posted/),
    });
    everyFindingOnce(first.iid, 4);
    expect(gitlab.drafts).toEqual([]);
  });

  it("deletes an earlier crashed run's drafts rather than publishing them with its own", async () => {
    const crashed = await makeHost(
      undefined,
      (method, url) => method === "POST" && /\/draft_notes$/.test(url),
    );
    await expect(crashed.host.publisher!.publish(review(5))).rejects.toThrow("Loupe stopped");
    expect(gitlab.drafts.length).toBeGreaterThan(0); // left by the run that stopped
    const next = await makeHost(crashed.iid);
    expect(await next.host.publisher!.publish(review(6))).toMatchObject({ kind: "posted" });
    everyFindingOnce(crashed.iid, 6);
    expect(landed(crashed.iid, [`loupe:review sha=${HEAD} run=5 -->`])).toEqual([0]);
    expect(gitlab.drafts).toEqual([]);
  });

  it("says in the review's summary how many findings went into the note of those GitLab would not place", async () => {
    const { host, mr, iid: n } = await makeHost();
    mr!.diffs = mr!.diffs.filter((d) => d.new_path !== "src/other.ts");
    const planned = review(7);
    const plan: PlannedReview = {
      ...emptyPlan(3),
      comments: planned.comments,
      body: planned.body,
      allInBody: planned.allInBody,
    };
    const published = await publishStep({
      host,
      plan,
      headSha: HEAD,
      runId: 7,
      scope: {} as ScopeStep, // read only to resolve threads, which an incomplete review does not
      complete: false,
      log: { info: () => {}, warn: () => {} },
    });
    expect(published.failed).toBe(false);
    expect(published.notes).toEqual([
      "1 of 3 inline comments could not be placed on their lines, so they were posted together in one note.",
    ]);
    everyFindingOnce(n, 7);
  });

  it("counts fixed the findings whose discussions it resolves after a complete review, as on GitHub", async () => {
    const { host } = await makeHost();
    await host.publisher!.publish(review(8));
    const entry = (n: number, path: string, line: number): LedgerEntry => ({
      identity: { code: n.toString(16).padStart(16, "0"), place: "00000000", claim: [] },
      fingerprint: n.toString(16).padStart(16, "0"),
      status: "open",
      title: `Finding ${n}.`,
      ...{ path, line, dismissal: null },
    });
    const ledger = [entry(1, "src/lines.ts", 3), entry(2, "src/lines.ts", 4), entry(3, "src/other.ts", 7)];
    // The new commits removed src/other.ts: its finding's discussion no longer applies.
    const newFiles = [{ filename: "src/other.ts", status: "removed", patch: null, previousFilename: null }];
    const published = await publishStep({
      host,
      plan: { ...emptyPlan(ledger.length), comments: [], postable: false },
      headSha: HEAD,
      runId: 8,
      scope: {
        scope: null,
        history: { fingerprints: new Set(), lastReviewed: null, hasReviewComments: true, ledger },
        newFiles: newFiles as unknown as ChangedFile[],
        configDigest: "",
      },
      complete: true,
      log: { info: () => {}, warn: () => {} },
    });
    expect(published.notes).toEqual([
      "Resolved 1 of Loupe's earlier thread whose finding no longer applies.",
    ]);
    expect(published.findings.fixed).toBe(1);
    expect(published.plan.ledger.counts).toEqual({ open: 2, fixed: 1, withdrawn: 0, dismissed: 0 });
    expect(published.plan.resolved.map((r) => r.title)).toEqual(["Finding 3."]);
  });
});
