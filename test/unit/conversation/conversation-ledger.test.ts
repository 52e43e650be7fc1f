import { describe, expect, it } from "@jest/globals";
import { dismissalCandidates, readLedger } from "../../../src/conversation/finding-ledger.ts";
import type { ReviewThread } from "../../../src/conversation/review-thread.ts";
import { findingIdentity, identityMarker } from "../../../src/review/finding-identity.ts";
import { fingerprintMarker } from "../../../src/review/fingerprint.ts";
import { statusMarker } from "../../../src/review/render-reply.ts";

const BOT = "loupe[bot]";
const identity = findingIdentity({ path: "a.ts", code: "x();", title: "Bad x", explanation: "x is bad." });
const loupe = (body: string) => ({ databaseId: 1, body, author: { login: "loupe", isBot: true } });
const LOUPE = { login: "loupe", isBot: true };
const user = (login: string) => ({ login, isBot: false });
const person = (login: string, body = "hm") => ({
  databaseId: 2,
  body,
  author: { login, isBot: false },
});
const ROOT = loupe(
  `🟠 **High** · Bad \\*x\\*\n\n${fingerprintMarker("0123456789abcdef")}\n${identityMarker(identity)}`,
);

function thread(overrides: Partial<ReviewThread> = {}): ReviewThread {
  return {
    id: "T",
    isResolved: false,
    isOutdated: false,
    path: "a.ts",
    line: 3,
    startLine: null,
    comments: [ROOT],
    resolvedBy: null,
    thumbsDown: [],
    ...overrides,
  };
}

const statusOf = (t: ReviewThread, writers: string[] = ["maya"]) =>
  readLedger({ threads: [t], botLogin: BOT, writers: new Set(writers) })[0]!;

describe("the ledger read from Loupe's threads", () => {
  it("reads an open finding: its identity, fingerprint, title and place", () => {
    expect(statusOf(thread())).toEqual({
      identity,
      fingerprint: "0123456789abcdef",
      status: "open",
      title: "Bad *x*",
      path: "a.ts",
      line: 3,
      dismissal: null,
    });
  });

  it("dismisses on a writer's 👎, not on a reader's or Loupe's", () => {
    const down = (actor: string | typeof LOUPE) =>
      thread({
        thumbsDown: [
          { createdAt: "2026-01-02T00:00:00Z", user: typeof actor === "string" ? user(actor) : actor },
        ],
      });
    expect(statusOf(down("maya"))).toMatchObject({
      status: "dismissed",
      dismissal: { by: "maya", at: "2026-01-02T00:00:00Z", how: "reaction" },
    });
    expect(statusOf(down("rex")).status).toBe("open");
    expect(statusOf(down(LOUPE), ["loupe"]).status).toBe("open");
  });

  it("dismisses when a writer resolves the thread on unchanged code; after a change it is fixed", () => {
    const resolved = (outdated: boolean, actor: string | typeof LOUPE) =>
      thread({
        isResolved: true,
        isOutdated: outdated,
        resolvedBy: typeof actor === "string" ? user(actor) : actor,
      });
    expect(statusOf(resolved(false, "maya"))).toMatchObject({
      status: "dismissed",
      dismissal: { how: "resolved" },
    });
    expect(statusOf(resolved(true, "maya")).status).toBe("fixed");
    expect(statusOf(resolved(false, "rex")).status).toBe("open");
    expect(statusOf(resolved(false, LOUPE)).status).toBe("fixed");
  });

  it("takes Loupe only as its bot account: a user whose login is Loupe's slug is a person", () => {
    // The attack: a reader's account named `loupe` resolves Loupe's thread on unchanged code.
    const impostor = thread({ isResolved: true, resolvedBy: user("loupe") });
    expect(statusOf(impostor, []).status).toBe("open");
    expect(statusOf(impostor, ["loupe"])).toMatchObject({ status: "dismissed", dismissal: { by: "loupe" } });
    // …or after its code changed: not fixed unless that person can write.
    expect(
      statusOf(thread({ isResolved: true, isOutdated: true, resolvedBy: user("loupe") }), []).status,
    ).toBe("open");
    // Its comments are not Loupe's: no thread it starts is a finding, no marker in it counts.
    expect(
      readLedger({
        threads: [thread({ comments: [person("loupe", ROOT.body)] })],
        botLogin: BOT,
        writers: new Set(),
      }),
    ).toEqual([]);
    // And it is asked about like anyone else.
    const t = thread({
      isResolved: true,
      resolvedBy: user("loupe"),
      thumbsDown: [{ createdAt: null, user: user("loupe") }],
    });
    expect([...dismissalCandidates([t], BOT)]).toEqual(["loupe"]);
  });

  it("keeps a reply's dismissal while the thread is resolved; unresolving it reopens the finding", () => {
    const comments = [ROOT, person("maya", "@loupe intended"), loupe(statusMarker("dismissed", "maya"))];
    const resolved = thread({ comments, isResolved: true, resolvedBy: LOUPE });
    expect(statusOf(resolved)).toMatchObject({
      status: "dismissed",
      dismissal: { by: "maya", how: "reply" },
    });
    expect(statusOf(thread({ comments })).status).toBe("open");
  });

  it("records a reply's dismissal by a GitLab username (dots and underscores), never by a name with spaces", () => {
    for (const login of ["jane.doe", "dev_1", "a-b.c_d"]) {
      const comments = [ROOT, person(login, "@loupe intended"), loupe(statusMarker("dismissed", login))];
      const resolved = thread({ comments, isResolved: true, resolvedBy: { login: "loupe", isBot: false } });
      expect(statusOf(resolved, [login])).toMatchObject({ status: "dismissed", dismissal: { by: login } });
    }
    expect(statusMarker("dismissed", "jane doe -->")).toBe("<!-- loupe:status=dismissed -->");
    expect(statusMarker("dismissed", ".leading")).toBe("<!-- loupe:status=dismissed -->");
  });

  it("takes Loupe's newest status: withdrawn, fixed, or still valid", () => {
    const said = (...statuses: ("fixed" | "withdrawn" | "still_valid")[]) =>
      thread({ comments: [ROOT, ...statuses.map((s) => loupe(statusMarker(s, null)))] });
    expect(statusOf(said("withdrawn")).status).toBe("withdrawn");
    expect(statusOf(said("withdrawn", "still_valid")).status).toBe("open");
    expect(statusOf(said("fixed")).status).toBe("fixed");
  });

  it("still valid, then its code changed and Loupe resolved the thread: fixed, as the review counted it", () => {
    const resolved = (by: ReviewThread["resolvedBy"], isOutdated: boolean) =>
      thread({
        comments: [ROOT, loupe(statusMarker("still_valid", null))],
        isResolved: true,
        isOutdated,
        resolvedBy: by,
      });
    expect(statusOf(resolved(LOUPE, true)).status).toBe("fixed");
    expect(statusOf(resolved(user("maya"), true)).status).toBe("fixed");
    // A reader resolving it changes nothing: still open.
    expect(statusOf(resolved(user("reader"), true)).status).toBe("open");
  });

  it("reads markers only from Loupe's own comments", () => {
    const forged = thread({
      comments: [ROOT, person("maya", statusMarker("dismissed", "maya"))],
      isResolved: true,
      resolvedBy: LOUPE,
    });
    expect(statusOf(forged).status).toBe("fixed");
    const notLoupes = thread({ comments: [person("mallory", ROOT.body)] });
    expect(readLedger({ threads: [notLoupes], botLogin: BOT, writers: new Set() })).toEqual([]);
  });

  it("asks about the people whose word could dismiss, never about Loupe", () => {
    const t = thread({
      isResolved: true,
      resolvedBy: user("maya"),
      thumbsDown: [
        { createdAt: null, user: user("rex") },
        { createdAt: null, user: LOUPE },
      ],
    });
    expect([...dismissalCandidates([t], BOT)].sort()).toEqual(["maya", "rex"]);
  });
});
