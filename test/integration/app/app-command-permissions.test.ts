// Who may command Loupe, through Probot with the real conversation example payloads and nock:
// `author_association` MEMBER or COLLABORATOR is not enough (both include read-only people); the
// collaborator permission endpoint is asked first, before any other call the mention causes, and
// only write, maintain or admin is answered. Its answer is cached per installation, repository
// and person for a minute (on the harness's clock); a failed lookup does nothing and is not kept.

import { describe, expect, it } from "@jest/globals";
import { PAUSE_LABEL } from "../../../src/conversation/pause-state.ts";
import { PERMISSION_TTL_MS } from "../../../src/conversation/permission-cache.ts";
import {
  BOT_LOGIN,
  expectCleanEnd,
  INSTALLATION,
  OWNER,
  PR,
  REPO,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { issueCommentPayload, reviewCommentPayload } from "../../support/conversation-payloads.ts";
import { mockGitHub } from "../../support/github-mock.ts";
import type { ProbotHarness } from "../../support/probot-harness.ts";

const app = useAppScenario({ harness: { botLogin: BOT_LOGIN } });
const github = () => mockGitHub(OWNER, REPO, INSTALLATION).token();
/** A later call of the same Probot: its installation token is cached. */
const githubAgain = () => mockGitHub(OWNER, REPO, INSTALLATION);
const TOKEN_CALL = `POST /app/installations/${INSTALLATION}/access_tokens`;
const permissionCall = (login: string) => `GET /repos/${OWNER}/${REPO}/collaborators/${login}/permission`;
const handled = (h: ProbotHarness) => h.logs().filter((l) => l.includes('"comment handled"'));

describe("a member or collaborator who can only read", () => {
  it.each([
    ["MEMBER", "@loupe-test pause", "read", "read"],
    ["COLLABORATOR", "@loupe-test full review", "read", "read"],
    ["COLLABORATOR", "@loupe-test resume", "read", "triage"],
  ])(
    "%s `%s` (%s/%s): refused, and nothing but the permission is asked",
    async (association, body, permission, role) => {
      const h = await app.start([]);
      const gh = github().permission("reader", permission, role);
      await h.receive("issue_comment", issueCommentPayload(body, { login: "reader", association }));
      await h.drain();
      // nock answers nothing else: any other call (a reaction, a label, pulls.get) would be recorded
      // as a failure in the log instead of this outcome.
      expect(gh.calls.map((c) => `${c.method} ${c.path}`)).toEqual([TOKEN_CALL, permissionCall("reader")]);
      expect(handled(h)).toHaveLength(1);
      expect(handled(h)[0]).toContain('"not_a_writer"');
      expect(gh.posted(`/issues/${PR}/labels`)).toEqual([]);
      expectCleanEnd(h, null, [gh]);
    },
  );

  it("COLLABORATOR replying in Loupe's thread: refused before the thread is read", async () => {
    const h = await app.start([]);
    const gh = github().permission("reader", "read");
    const payload = reviewCommentPayload("@loupe-test why?", 5501, {
      login: "reader",
      association: "COLLABORATOR",
    });
    await h.receive("pull_request_review_comment", payload);
    await h.drain();
    expect(gh.calls.map((c) => `${c.method} ${c.path}`)).toEqual([TOKEN_CALL, permissionCall("reader")]);
    expect(handled(h)[0]).toContain('"not_a_writer"');
    expectCleanEnd(h, app.provider, [gh]);
  });
});

describe("people who can write", () => {
  it.each([
    ["write", "write"],
    ["write", "maintain"],
    ["admin", "admin"],
    ["write", "release-manager"], // an organisation's custom role built on write
  ])("permission %s, role %s, as MEMBER: answered", async (permission, role) => {
    const h = await app.start([]);
    const payload = issueCommentPayload("@loupe-test pause", { login: "writer", association: "MEMBER" });
    const gh = github()
      .permission("writer", permission, role)
      .reaction("issue_comment", payload.comment.id)
      .addLabel(PR)
      .issueComment(PR);
    await h.receive("issue_comment", payload);
    expect(gh.calls.map((c) => `${c.method} ${c.path}`).slice(0, 2)).toEqual([
      TOKEN_CALL,
      permissionCall("writer"),
    ]);
    expect(gh.posted(`/issues/${PR}/labels`)).toEqual([{ labels: [PAUSE_LABEL] }]);
    expectCleanEnd(h, null, [gh]);
  });
});

describe("the permission cache", () => {
  it("answers again within the minute without asking, and asks again after it", async () => {
    let now = 1_000_000;
    const h = await app.start([], { now: () => now });
    const ask = (text: string) => issueCommentPayload(text, { login: "writer", association: "COLLABORATOR" });
    const first = ask("@loupe-test help");
    const second = ask("@loupe-test help");
    const gh = github()
      .permission("writer", "write")
      .reaction("issue_comment", first.comment.id)
      .issueComment(PR)
      .reaction("issue_comment", second.comment.id)
      .issueComment(PR);
    await h.receive("issue_comment", first);
    now += PERMISSION_TTL_MS - 1;
    await h.receive("issue_comment", second);
    expect(gh.calls.filter((c) => c.path.endsWith("/permission"))).toHaveLength(1);
    expect(gh.posted(`/issues/${PR}/comments`)).toHaveLength(2);
    expectCleanEnd(h, null, [gh]);

    // A minute on, the write access was taken away: asked again, and refused.
    now += 1;
    const later = githubAgain().permission("writer", "read");
    await h.receive("issue_comment", ask("@loupe-test full review"));
    await h.drain();
    expect(later.calls.map((c) => `${c.method} ${c.path}`)).toEqual([permissionCall("writer")]);
    expect(handled(h).at(-1)).toContain('"not_a_writer"');
    expectCleanEnd(h, null, [gh, later]);
  });

  it("a permission lookup GitHub fails (502): nothing done, a clear log line, and the next comment asks again", async () => {
    const h = await app.start([]);
    const gh = github().permission("writer", "write", "write", 502);
    await h.receive(
      "issue_comment",
      issueCommentPayload("@loupe-test pause", { login: "writer", association: "MEMBER" }),
    );
    await h.drain();
    expect(gh.calls.map((c) => `${c.method} ${c.path}`)).toEqual([TOKEN_CALL, permissionCall("writer")]);
    const warning = h.logs().find((l) => l.includes("did not say whether its author may write"));
    expect(warning).toContain('"login":"writer"');
    expect(warning).toContain("502");
    expect(handled(h)[0]).toContain('"permission_unknown"');

    const payload = issueCommentPayload("@loupe-test pause", { login: "writer", association: "MEMBER" });
    const retry = githubAgain()
      .permission("writer", "write")
      .reaction("issue_comment", payload.comment.id)
      .addLabel(PR)
      .issueComment(PR);
    await h.receive("issue_comment", payload);
    expect(retry.posted(`/issues/${PR}/labels`)).toEqual([{ labels: [PAUSE_LABEL] }]);
    expectCleanEnd(h, null, [gh, retry]);
  });
});
