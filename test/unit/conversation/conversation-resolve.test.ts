import { describe, expect, it } from "@jest/globals";
import { changedLines, fileChanges } from "../../../src/conversation/file-changes.ts";
import {
  hasUnansweredReply,
  loupeFingerprint,
  type ReviewThread,
} from "../../../src/conversation/review-thread.ts";
import { MAX_RESOLVED, selectResolvable } from "../../../src/conversation/select-resolvable.ts";
import { fingerprintMarker } from "../../../src/review/fingerprint.ts";

const BOT = "loupe[bot]";
const fp = (n: number) => n.toString(16).padStart(16, "0");
// GraphQL spells a bot's login without "[bot]".
const loupeSays = (body: string) => ({ databaseId: 1, body, author: { login: "loupe", isBot: true } });
const personSays = (body: string, login = "octocat") => ({
  databaseId: 2,
  body,
  author: { login, isBot: false },
});

function thread(n: number, changes: Partial<ReviewThread> = {}): ReviewThread {
  return {
    id: `T_${n}`,
    isResolved: false,
    isOutdated: false,
    path: "src/a.ts",
    line: 10,
    startLine: null,
    comments: [loupeSays(`finding ${fingerprintMarker(fp(n))}`)],
    ...changes,
  };
}

describe("thread helpers", () => {
  it("recognises Loupe's threads by author (both login spellings) and reads the fingerprint", () => {
    expect(loupeFingerprint(thread(1), BOT)).toBe(fp(1));
    const rest = {
      ...thread(1),
      comments: [{ databaseId: 1, body: fingerprintMarker(fp(1)), author: { login: BOT, isBot: false } }],
    };
    expect(loupeFingerprint(rest, BOT)).toBe(fp(1));
    const forged = { ...thread(1), comments: [personSays(fingerprintMarker(fp(1)), "loupe")] };
    expect(loupeFingerprint(forged, BOT)).toBeNull();
  });

  it("sees a person's reply as unanswered until Loupe speaks after it", () => {
    const replied = thread(1, { comments: [loupeSays("f"), personSays("why?")] });
    expect(hasUnansweredReply(replied, BOT)).toBe(true);
    const answered = thread(1, { comments: [loupeSays("f"), personSays("why?"), loupeSays("because")] });
    expect(hasUnansweredReply(answered, BOT)).toBe(false);
  });
});

describe("changedLines / fileChanges", () => {
  it("collects added lines and both neighbours of a deletion", () => {
    const patch = "@@ -1,4 +1,3 @@\n a\n-b\n c\n-d\n+D\n@@ -20,2 +20,3 @@\n x\n+y\n z";
    expect([...changedLines(patch)].sort((a, b) => a - b)).toEqual([1, 2, 3, 21]);
  });

  it("counts an empty context line (its space stripped) as a line, as the anchoring does", () => {
    const patch = "@@ -1,3 +1,4 @@\n a\n\n+x\n c";
    expect([...changedLines(patch)]).toEqual([3]);
  });

  it("marks removed, renamed-away and patchless files as gone", () => {
    const changes = fileChanges([
      { filename: "gone.ts", status: "removed", previousFilename: null, patch: null },
      { filename: "new.ts", status: "renamed", previousFilename: "old.ts", patch: "@@ -1 +1 @@\n-a\n+b" },
      { filename: "big.bin", status: "modified", previousFilename: null, patch: null },
    ]);
    expect(changes.get("gone.ts")?.removed).toBe(true);
    expect(changes.get("old.ts")?.removed).toBe(true);
    expect(changes.get("big.bin")?.removed).toBe(true);
    expect(changes.get("new.ts")).toEqual({ removed: false, changedLines: new Set([1]) });
  });
});

describe("selectResolvable", () => {
  const changes = new Map([["src/a.ts", { removed: false, changedLines: new Set([10]) }]]);
  const select = (threads: ReviewThread[], raised: string[] = [], c: typeof changes | null = changes) =>
    selectResolvable({ threads, botLogin: BOT, raisedAgain: new Set(raised), changes: c }).map((t) => t.id);

  it("resolves Loupe's thread whose anchored lines changed and whose finding is not raised again", () => {
    expect(select([thread(1)])).toEqual(["T_1"]);
  });

  it.each([
    ["the finding is raised again", [thread(1)], [fp(1)]],
    ["the lines did not change", [thread(1, { line: 30 })], []],
    ["it is already resolved", [thread(1, { isResolved: true })], []],
    ["a person started it", [thread(1, { comments: [personSays(fingerprintMarker(fp(1)))] })], []],
    [
      "a person's reply is unanswered",
      [thread(1, { comments: [loupeSays(fingerprintMarker(fp(1))), personSays("no")] })],
      [],
    ],
    ["Loupe's comment has no fingerprint", [thread(1, { comments: [loupeSays("no marker")] })], []],
  ])("leaves it when %s", (_name, threads, raised) => {
    expect(select(threads, raised)).toEqual([]);
  });

  it("counts outdated threads, removed files and a range that touches a changed line", () => {
    expect(select([thread(1, { isOutdated: true, line: null })], [], null)).toEqual(["T_1"]);
    expect(
      select(
        [thread(2, { path: "gone.ts" })],
        [],
        new Map([["gone.ts", { removed: true, changedLines: new Set() }]]),
      ),
    ).toEqual(["T_2"]);
    expect(select([thread(3, { startLine: 8, line: 12 })])).toEqual(["T_3"]);
    expect(select([thread(4, { line: 30 })], [], null)).toEqual([]);
  });

  it(`resolves at most ${MAX_RESOLVED} per review, even when asked for more`, () => {
    const many = Array.from({ length: 80 }, (_, i) => thread(i + 1, { isOutdated: true }));
    expect(select(many)).toHaveLength(MAX_RESOLVED);
    expect(
      selectResolvable({ threads: many, botLogin: BOT, raisedAgain: new Set(), changes: null, max: 500 }),
    ).toHaveLength(MAX_RESOLVED);
  });
});
