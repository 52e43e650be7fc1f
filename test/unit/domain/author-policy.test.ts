// Who may start an automatic review: the policy by the author's role, the repository tightening
// (never loosening) the operator's choice, write access asked of the host, and asked-for reviews
// never held back.

import { describe, expect, it } from "@jest/globals";
import { defaultRepoConfig } from "../../../src/config/repo-config-schema.ts";
import { type AuthorPolicy, authorVerdict, stricterPolicy } from "../../../src/domain/author-policy.ts";
import type { AuthorRole } from "../../../src/domain/author-role.ts";
import type { PullRequest } from "../../../src/domain/pull-request.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { decideAuthor } from "../../../src/pipeline/author-step.ts";
import { renderSkipOutput } from "../../../src/report/check-run-output.ts";

const author = (role: AuthorRole, login: string | null = "someone") => ({ login, isBot: false, role });

describe("authorVerdict", () => {
  it.each([
    ["everyone", "none", "allowed"],
    ["members", "owner", "allowed"],
    ["members", "member", "allowed"],
    ["members", "collaborator", "allowed"],
    ["members", "contributor", "refused"],
    ["members", "first_timer", "refused"],
    ["members", "none", "refused"],
    ["writers", "owner", "allowed"],
    ["writers", "member", "ask"],
    ["writers", "none", "ask"],
  ] as const)("%s and %s: %s", (policy, role, verdict) => {
    expect(authorVerdict(policy, author(role))).toBe(verdict);
  });

  it("refuses an author it cannot name under writers", () => {
    expect(authorVerdict("writers", author("none", null))).toBe("refused");
  });
});

it("lets a repository tighten the operator's policy, never loosen it", () => {
  const order: AuthorPolicy[] = ["everyone", "members", "writers"];
  for (const a of order)
    for (const b of order)
      expect(stricterPolicy(a, b)).toBe(order[Math.max(order.indexOf(a), order.indexOf(b))]);
});

describe("decideAuthor", () => {
  const pr = (role: AuthorRole): PullRequest => ({
    number: 7,
    url: "",
    title: "",
    body: null,
    headSha: "h",
    baseSha: "b",
    draft: false,
    author: author(role, "stranger"),
    open: true,
    labels: [],
  });
  const asked: string[] = [];
  const people = (writers: string[]) => ({
    canWrite: async (login: string) => {
      asked.push(login);
      return writers.includes(login);
    },
  });

  it("skips a stranger's pull request and says how a writer starts the review", async () => {
    const outcome = await decideAuthor({
      words: GITHUB_WORDS,
      operatorPolicy: "members",
      config: defaultRepoConfig(),
      pullRequest: pr("none"),
      asked: false,
      people: people([]),
    });
    expect(outcome).toMatchObject({ kind: "skipped", code: "author_not_allowed" });
    expect(outcome?.kind === "skipped" && outcome.detail).toMatch(
      /`auto_review_authors: members`.*`review` command/,
    );
  });

  it("gives the exact command to copy with the handle commands mention, as the check run shows it", async () => {
    const skip = (mention?: () => Promise<string>) =>
      decideAuthor({
        words: GITHUB_WORDS,
        operatorPolicy: "members",
        config: defaultRepoConfig(),
        pullRequest: pr("none"),
        asked: false,
        people: people([]),
        ...(mention === undefined ? {} : { mention }),
      });
    const outcome = await skip(async () => "loupe-review");
    if (outcome?.kind !== "skipped") throw new Error("not skipped");
    expect(outcome.detail).toContain("with a comment `@loupe-review review`.");
    // The check run keeps it a code span to copy, not a mention turned into ＠.
    expect(renderSkipOutput(outcome.code, outcome.detail).summary).toContain("`@loupe-review review`");
    // Without a handle (or when it cannot be looked up) the words stay general.
    const failing = await skip(async () => Promise.reject(new Error("GET /app failed")));
    expect(failing?.kind === "skipped" && failing.detail).toContain("a `review` command mentioning Loupe");
  });

  it("reviews what a person asked for, whoever opened it", async () => {
    const config = { ...defaultRepoConfig(), auto_review_authors: "writers" as const };
    expect(
      await decideAuthor({
        words: GITHUB_WORDS,
        operatorPolicy: "writers",
        config,
        pullRequest: pr("none"),
        asked: true,
        people: undefined,
      }),
    ).toBeNull();
  });

  it("holds back no local change: no one opened it on a host, and no one is asked about", async () => {
    const before = asked.length;
    const local = { ...pr("none"), number: null, url: null, title: null, author: null };
    for (const operatorPolicy of ["members", "writers"] as const) {
      const input = { operatorPolicy, config: defaultRepoConfig(), pullRequest: local, asked: false };
      expect(
        await decideAuthor({
          words: GITHUB_WORDS,
          ...input,
          people: people([]),
        }),
      ).toBeNull();
    }
    expect(asked.length).toBe(before);
  });

  it("asks the host for write access under writers, and a repository cannot loosen the operator", async () => {
    const config = { ...defaultRepoConfig(), auto_review_authors: "everyone" as const };
    const input = { operatorPolicy: "writers" as const, config, pullRequest: pr("member"), asked: false };
    expect(
      await decideAuthor({
        words: GITHUB_WORDS,
        ...input,
        people: people(["stranger"]),
      }),
    ).toBeNull();
    expect(
      await decideAuthor({
        words: GITHUB_WORDS,
        ...input,
        people: people([]),
      }),
    ).toMatchObject({
      code: "author_not_allowed",
    });
    expect(asked).toEqual(["stranger", "stranger"]);
  });

  it("lets a repository tighten members to writers", async () => {
    const config = { ...defaultRepoConfig(), auto_review_authors: "writers" as const };
    const outcome = await decideAuthor({
      words: GITHUB_WORDS,
      operatorPolicy: "members",
      config,
      pullRequest: pr("collaborator"),
      asked: false,
      people: people([]),
    });
    expect(outcome).toMatchObject({ code: "author_not_allowed" });
  });
});
