// The GitLab host against the fake GitLab, on what differs from GitHub: positions GitLab accepts
// (new_line for an added line, old_line and new_line for a context line, line_range for a range),
// a finding GitLab cannot place sending the whole review as one note, renames and paged diffs,
// GitLab's 429 with Retry-After waited within the deadline, the token only in headers, and a
// thread outdated once a push changed its line (GitLab traces an unchanged one to the new diff),
// and a diff GitLab cut at its limits (changes_count "N+") or collapsed (an older instance).

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { defaultRepoConfig } from "../../../../src/config/repo-config-schema.ts";
import { GitLabError, gitLabApi } from "../../../../src/forges/gitlab/gitlab-api.ts";
import { gitLabHost } from "../../../../src/forges/gitlab/gitlab-host.ts";
import type { HostReview } from "../../../../src/host/pull-request-host.ts";
import { selectChange } from "../../../../src/pipeline/change-step.ts";
import { fetchWorkspace } from "../../../../src/workspace/fetch.ts";
import { type FakeGitLab, startFakeGitLab } from "../../../support/fake-gitlab.ts";
import type { GitLabDiffLimits } from "../../../support/fake-gitlab-diffs.ts";
import { createRepo, type FixtureRepo } from "../../../support/git-fixture.ts";

const LINES = ["one", "two", "three", "four", "five", "six"].map((w) => `export const ${w} = 1;`);
let repo: FixtureRepo;
let gitlab: FakeGitLab;
let iid = 0;

beforeAll(async () => {
  repo = createRepo();
  repo.write("src/lines.ts", `${LINES.join("\n")}\n`);
  repo.write("src/old-name.ts", `${LINES.join("\n")}\n`);
  repo.commit("lines");
  repo.branch("change");
  repo.write(
    "src/lines.ts",
    `${LINES.slice(0, 2).join("\n")}\nexport const added = 2;\n${LINES.slice(3).join("\n")}\n`,
  );
  repo.remove("src/old-name.ts");
  repo.write("src/new-name.ts", `${LINES.join("\n")}\nexport const seven = 1;\n`);
  for (let n = 0; n < 120; n++) repo.write(`many/f${n}.txt`, `${n}\n`);
  repo.commit("change");
  repo.checkout("main");
  gitlab = await startFakeGitLab();
  gitlab.addProject({ path: "team/app", source: repo });
}, 60_000);

afterAll(async () => {
  await gitlab?.stop();
  repo?.dispose();
});

function makeHost(
  retry?: { sleep: (ms: number) => Promise<void>; deadline: number },
  sourceBranch = "change",
  diffLimits?: GitLabDiffLimits,
) {
  const mr = gitlab.addMergeRequest({
    project: "team/app",
    iid: ++iid,
    sourceBranch,
    ...(diffLimits === undefined ? {} : { diffLimits }),
  });
  const host = gitLabHost({
    api: gitLabApi({
      url: gitlab.url,
      token: gitlab.token,
      retry: {
        sleep: retry?.sleep ?? (async () => {}),
        now: () => 0,
        deadline: retry?.deadline ?? Number.POSITIVE_INFINITY,
      },
    }),
    target: { owner: "team", repo: "app", pullNumber: mr.iid },
    url: gitlab.url,
    token: gitlab.token,
    fetchWorkspace: (input) => fetchWorkspace({ ...input, maxBytes: 50_000_000 }),
    self: async () => gitlab.username,
  });
  return { host, mr };
}

const review = (comments: HostReview["comments"], run: number): HostReview => ({
  headSha: "",
  marker: `<!-- loupe:review run=${run} -->`,
  body: `The review. <!-- loupe:review run=${run} -->`,
  comments,
  allInBody: () => `Every finding here. <!-- loupe:review run=${run} -->`,
});

describe("the GitLab host", () => {
  it("lists renames and every page of a merge request's diffs", async () => {
    const { host, mr } = makeHost();
    const changes = await host.changes(await host.pullRequest());
    expect(changes.files).toHaveLength(122);
    expect(changes.mergeBaseSha).toBe(mr.diffRefs.base_sha);
    expect(changes.files.find((f) => f.filename === "src/new-name.ts")).toMatchObject({
      status: "renamed",
      previousFilename: "src/old-name.ts",
      additions: 1,
    });
    expect(gitlab.requests.filter((r) => r.url.includes(`/merge_requests/${mr.iid}/diffs`))).toHaveLength(2);
  });

  it("marks the list cut when GitLab stopped at its line limit below 1,000 files, and never reviews part of it", async () => {
    // An admin's lowered limit: GitLab's diff stops at the file that brings it to 40 lines.
    const { host } = makeHost(undefined, "change", { maxFiles: 1_000, maxLines: 40 });
    const changes = await host.changes(await host.pullRequest());
    expect(changes.files.length).toBeLessThan(122);
    expect(changes.filesTruncated).toBe(true);
    const step = await selectChange(changes, defaultRepoConfig(), host.words);
    expect(step).toMatchObject({ kind: "skipped", code: "too_many_files" });
    expect(JSON.stringify(step)).toContain(`changes ${changes.files.length}+ files`);
  });

  it("lists a file an older GitLab collapsed with no patch, and reads an uncut diff as whole", async () => {
    const { host } = makeHost(undefined, "change", { maxFiles: 1_000, maxLines: 50_000, safeMaxFiles: 2 });
    const changes = await host.changes(await host.pullRequest());
    expect(changes.files).toHaveLength(122);
    expect(changes.filesTruncated).toBe(false);
    expect(changes.files.slice(2).every((f) => f.patch === null)).toBe(true);
    expect(changes.files.slice(0, 2).every((f) => f.patch !== null)).toBe(true);
  });

  it("places an added line by new_line, a context line by both, and a range by its line codes", async () => {
    const { host, mr } = makeHost();
    await host.changes(await host.pullRequest());
    const published = await host.publisher!.publish(
      review(
        [
          { path: "src/lines.ts", line: 3, body: "Added." },
          { path: "src/lines.ts", line: 4, body: "Context." },
          { path: "src/lines.ts", line: 4, startLine: 2, body: "A range.\n\n```suggestion\nx\n```" },
          { path: "src/new-name.ts", line: 7, body: "Renamed and added." },
        ],
        1,
      ),
    );
    expect(published).toMatchObject({ kind: "posted", allInBody: false });
    const batch = gitlab.publishes.at(-1)!;
    const positions = batch.map((d) => d.position);
    expect(positions[0]).toBeNull(); // the review's body
    expect(positions[1]).toMatchObject({ new_line: 3, new_path: "src/lines.ts", ...mr.diffRefs });
    expect(positions[1]).not.toHaveProperty("old_line");
    expect(positions[2]).toMatchObject({ new_line: 4, old_line: 4 });
    expect(positions[3]?.line_range).toMatchObject({
      start: { type: "old", old_line: 2, new_line: 2 },
      end: { type: "old", old_line: 4, new_line: 4 },
    });
    // GitLab's plain suggestion replaces the note's line alone: a range's says how far up it reaches.
    expect(batch[3]?.note).toBe("A range.\n\n```suggestion:-2+0\nx\n```");
    expect(positions[4]).toMatchObject({
      old_path: "src/old-name.ts",
      new_path: "src/new-name.ts",
      new_line: 7,
    });
    expect(gitlab.drafts).toEqual([]);
  });

  it("reads a 👎 in any skin tone on Loupe's discussion (GitLab names each tone apart)", async () => {
    const { host, mr } = makeHost();
    await host.changes(await host.pullRequest());
    await host.publisher!.publish(review([{ path: "src/lines.ts", line: 3, body: "Added." }], 5));
    const finding = gitlab.notes.find((n) => n.iid === mr.iid && n.type === "DiffNote")!;
    gitlab.award(finding, "thumbsdown_tone3", "dev");
    gitlab.award(finding, "thumbsdown_tone5", "rep");
    gitlab.award(finding, "thumbsup_tone3", "ops");
    gitlab.award(finding, "thumbsdown", "lead");
    const { threads } = await host.threads!.list({ thumbsDown: true });
    const thread = threads.find((t) => t.comments[0]?.databaseId === finding.id)!;
    expect(thread.thumbsDown?.map((t) => t.user?.login)).toEqual(["dev", "rep", "lead"]);
  });

  it("reads a thread as outdated once a push changed its line, and as current when GitLab traced it", async () => {
    repo.branch("traced", "change");
    repo.checkout("main");
    gitlab.pushBranch("team/app", repo, "traced");
    const { host, mr } = makeHost(undefined, "traced");
    await host.changes(await host.pullRequest());
    await host.publisher!.publish(
      review(
        [
          { path: "src/lines.ts", line: 3, body: "Added." },
          { path: "src/lines.ts", line: 5, body: "Unchanged." },
        ],
        7,
      ),
    );
    const [changed, kept] = ["Added.", "Unchanged."].map(
      (body) => gitlab.notes.find((n) => n.iid === mr.iid && n.body.startsWith(body))!,
    );
    // A push adds a line above both and changes line 3: line 5 is traced to 6, line 3 is not.
    repo.checkout("traced");
    const now = `${repo.git("show", "traced:src/lines.ts")}\n`.replace("added = 2", "added = 3");
    repo.write("src/lines.ts", `// header\n${now}`);
    repo.commit("change line 3");
    repo.checkout("main");
    gitlab.pushBranch("team/app", repo, "traced");
    gitlab.addMergeRequest({ project: "team/app", iid: mr.iid, sourceBranch: "traced" });
    const { threads } = await host.threads!.list({ thumbsDown: true });
    const thread = (note: typeof changed) => threads.find((t) => t.comments[0]?.databaseId === note!.id)!;
    expect(thread(changed)).toMatchObject({ isOutdated: true, line: 3 });
    expect(thread(kept)).toMatchObject({ isOutdated: false, line: 6 });
  });

  it("sends the whole review as one note when a finding cannot be placed, leaving no draft", async () => {
    const { host } = makeHost();
    await host.changes(await host.pullRequest());
    const before = gitlab.publishes.length;
    const published = await host.publisher!.publish(
      review([{ path: "src/lines.ts", line: 40, body: "Outside the diff." }], 2),
    );
    expect(published).toMatchObject({ kind: "posted", allInBody: true });
    expect(gitlab.publishes.length).toBe(before);
    expect(gitlab.notes.at(-1)?.body).toBe("Every finding here. <!-- loupe:review run=2 -->");
  });

  it("posts a comment whose position GitLab refuses at publish in one note of its own, leaving no draft", async () => {
    const { host, mr } = makeHost();
    await host.changes(await host.pullRequest());
    // Moved on GitLab's side: another commit id (its first digit changed, whatever it was). GitLab
    // saves the draft (it checks only the position's shape), then does not create its note at
    // publish; the discussion Loupe posts instead is refused (400): the finding goes in a note.
    const moved = mr.diffRefs.base_sha.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    mr.diffRefs = { ...mr.diffRefs, start_sha: moved };
    const published = await host.publisher!.publish(
      review([{ path: "src/lines.ts", line: 3, body: "x" }], 3),
    );
    expect(published).toMatchObject({ kind: "posted", allInBody: false, unplaced: 1 });
    expect(gitlab.requests.some((r) => r.url.endsWith("/discussions") && r.status === 400)).toBe(true);
    const note = gitlab.notes.at(-1)!;
    expect(note.body).toContain("1 finding could not be placed on its line");
    expect(note.body).toContain("<!-- loupe:unplaced run=3 -->");
    expect(gitlab.drafts).toEqual([]);
  });

  it("waits GitLab's Retry-After on a 429, and lets it through when the wait passes the deadline", async () => {
    const waits: number[] = [];
    const { host } = makeHost({ sleep: async (ms) => void waits.push(ms), deadline: 10_000 });
    gitlab.limitNext(1, 7);
    expect((await host.pullRequest()).title).toBe("Change change");
    expect(waits).toEqual([7_000]);
    gitlab.limitNext(1, 30);
    const refused = await host.pullRequest().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GitLabError);
    expect((refused as GitLabError).status).toBe(429);
    expect(waits).toEqual([7_000]);
  });

  it("sends the token only in headers, to the API and to git alike", async () => {
    const { host } = makeHost();
    const pullRequest = await host.pullRequest();
    const changes = await host.changes(pullRequest);
    const workspace = await host.openWorkspace({
      pullRequest,
      mergeBaseSha: changes.mergeBaseSha,
      signal: new AbortController().signal,
    });
    await workspace.dispose();
    expect(gitlab.gitRequests.length).toBeGreaterThan(0);
    for (const request of [...gitlab.requests, ...gitlab.gitRequests])
      expect(request.url).not.toContain(gitlab.token);
    const api = gitlab.requests.filter((r) => r.url.startsWith("/api/v4/"));
    expect(api.every((r) => r.headers["private-token"] === gitlab.token)).toBe(true);
    expect(gitlab.gitRequests.every((r) => r.headers.authorization?.startsWith("Basic "))).toBe(true);
  });
});
