import { describe, expect, it } from "@jest/globals";
import { isPaused, labelNames, PAUSE_LABEL } from "../../../src/conversation/pause-state.ts";
import {
  decideReviewScope,
  describeScope,
  type HeadComparison,
} from "../../../src/conversation/review-scope.ts";
import { configDigest, lastReviewedState, reviewedMarker } from "../../../src/conversation/review-state.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { gitLabWords } from "../../../src/forges/gitlab/words.ts";
import { sanitizeMarkdown } from "../../../src/review/sanitize.ts";

const BOT = "loupe[bot]";
const loupe = { login: BOT, isBot: true };
const A = "a".repeat(40);
const B = "b".repeat(40);
const M = "c".repeat(40);

describe("pause state", () => {
  it("is the pause label, whatever its case, read from webhook or REST label lists", () => {
    expect(isPaused(labelNames([{ name: "bug" }, { name: PAUSE_LABEL }]))).toBe(true);
    expect(isPaused(labelNames([{ name: "Loupe-Paused" }]))).toBe(true);
    expect(isPaused(labelNames([{ name: "bug" }, "loupe-paused-not"]))).toBe(false);
    expect(isPaused(labelNames(undefined))).toBe(false);
    expect(labelNames([null, { name: 3 }, "x"])).toEqual(["x"]);
  });
});

describe("reviewed state", () => {
  const digest = configDigest({ b: 1, a: [1, 2] });

  it("digests configuration independently of key order", () => {
    expect(configDigest({ a: [1, 2], b: 1 })).toBe(digest);
    expect(configDigest({ a: [2, 1], b: 1 })).not.toBe(digest);
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
  });

  it("round-trips through the marker and takes Loupe's newest review", () => {
    const older = reviewedMarker({ headSha: A, mergeBaseSha: M, configDigest: digest });
    const newer = reviewedMarker({ headSha: B, mergeBaseSha: M, configDigest: digest });
    const reviews = [
      { id: 2, author: loupe, body: `x ${newer}`, submittedAt: "2026-01-02T00:00:00Z" },
      { id: 1, author: loupe, body: `y ${older}`, submittedAt: "2026-01-01T00:00:00Z" },
      { id: 3, author: { login: "mallory", isBot: false }, body: older, submittedAt: "2026-01-09T00:00:00Z" },
    ];
    expect(lastReviewedState(reviews, BOT)).toEqual({ headSha: B, mergeBaseSha: M, configDigest: digest });
    expect(lastReviewedState([], BOT)).toBeNull();
  });

  it("model text cannot carry the marker into a published body", () => {
    const marker = reviewedMarker({ headSha: A, mergeBaseSha: M, configDigest: digest });
    const published = sanitizeMarkdown(`text ${marker}`, {
      owner: "o",
      repo: "r",
      host: "github.com",
      maxLength: 1000,
    });
    const review = { id: 1, author: loupe, body: published, submittedAt: null };
    expect(lastReviewedState([review], BOT)).toBeNull();
  });

  it("refuses to write a malformed marker", () => {
    expect(() => reviewedMarker({ headSha: "abc", mergeBaseSha: M, configDigest: digest })).toThrow(
      TypeError,
    );
    expect(() => reviewedMarker({ headSha: A, mergeBaseSha: M, configDigest: "x" })).toThrow(TypeError);
  });
});

describe("decideReviewScope", () => {
  const last = { headSha: A, mergeBaseSha: M, configDigest: "0123456789abcdef" };
  const current = { headSha: B, mergeBaseSha: M, configDigest: "0123456789abcdef" };
  const ahead = (n: number) => async (): Promise<HeadComparison> => ({ status: "ahead", aheadBy: n });
  const base = { askedFull: false, incrementalEnabled: true, last, current, compare: ahead(2) };

  it("is incremental after a fast-forward push", async () => {
    const scope = await decideReviewScope(base);
    expect(scope).toEqual({ kind: "incremental", sinceSha: A, commits: 2 });
    expect(describeScope(scope, GITHUB_WORDS)).toBe("incremental: 2 commits since aaaaaaa");
    expect(describeScope({ kind: "incremental", sinceSha: A, commits: 1 }, GITHUB_WORDS)).toBe(
      "incremental: 1 commit since aaaaaaa",
    );
  });

  it.each([
    ["asked_full", { askedFull: true }],
    ["incremental_off", { incrementalEnabled: false }],
    ["no_earlier_review", { last: null }],
    ["same_head", { current: { ...current, headSha: A } }],
    ["config_changed", { current: { ...current, configDigest: "fedcba9876543210" } }],
    ["base_moved", { current: { ...current, mergeBaseSha: "d".repeat(40) } }],
    ["history_rewritten", { compare: async () => ({ status: "diverged", aheadBy: 3 }) as HeadComparison }],
    ["history_rewritten", { compare: async () => ({ status: "behind", aheadBy: 0 }) as HeadComparison }],
    ["history_rewritten", { compare: async () => null }],
  ])("is full (%s)", async (reason, change) => {
    const scope = await decideReviewScope({ ...base, ...change } as Parameters<typeof decideReviewScope>[0]);
    expect(scope).toMatchObject({ kind: "full", reason });
    expect(describeScope(scope, GITHUB_WORDS)).toMatch(/^full review: ./);
  });

  it("names the change and the settings file in the forge's words", () => {
    const full = (reason: "incremental_off" | "no_earlier_review" | "config_changed") =>
      ({ kind: "full", reason, sinceSha: null }) as const;
    const gitlab = gitLabWords("loupe-bot");
    expect(describeScope(full("incremental_off"), gitlab)).toBe(
      "full review: `incremental` is off in `.gitlab/loupe.yml` (or `.github/loupe.yml`)",
    );
    expect(describeScope(full("no_earlier_review"), gitlab)).toBe(
      "full review: Loupe has not reviewed this merge request before",
    );
    expect(describeScope(full("config_changed"), gitlab)).toBe(
      "full review: `.gitlab/loupe.yml` (or `.github/loupe.yml`) changed since the last review",
    );
    expect(describeScope(full("incremental_off"), GITHUB_WORDS)).toBe(
      "full review: `incremental` is off in `.github/loupe.yml`",
    );
    expect(describeScope(full("no_earlier_review"), GITHUB_WORDS)).toBe(
      "full review: Loupe has not reviewed this pull request before",
    );
    expect(describeScope(full("config_changed"), GITHUB_WORDS)).toBe(
      "full review: `.github/loupe.yml` changed since the last review",
    );
  });

  it("asks GitHub for the comparison only when everything else allows an incremental review", async () => {
    let asked = 0;
    const compare = async (): Promise<HeadComparison> => {
      asked++;
      return { status: "ahead", aheadBy: 1 };
    };
    await decideReviewScope({ ...base, last: null, compare });
    await decideReviewScope({ ...base, askedFull: true, compare });
    expect(asked).toBe(0);
    await decideReviewScope({ ...base, compare });
    expect(asked).toBe(1);
  });
});
