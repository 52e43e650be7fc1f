import { describe, expect, it } from "@jest/globals";
import { mentionsBot, parseCommand, readableText } from "../../../src/conversation/command.ts";
import { canWrite, decideAuthor } from "../../../src/conversation/permission.ts";
import type { AuthorRole } from "../../../src/domain/author-role.ts";

const BOT = "loupe[bot]";

describe("parseCommand", () => {
  it.each([
    ["@loupe review", "review"],
    ["@loupe full review", "full_review"],
    ["@Loupe Full  Review.", "full_review"],
    ["@loupe full-review", "full_review"],
    ["@loupe pause", "pause"],
    ["@loupe resume!", "resume"],
    ["@loupe help", "help"],
    ["Thanks for the fixes.\n\n@loupe review", "review"],
    ["@loupe[bot] review", "review"],
    // The courtesy people write around a command.
    ["@loupe review please", "review"],
    ["@loupe please review", "review"],
    ["@loupe review again, thanks!", "review"],
    ["@loupe please full review now", "full_review"],
    ["@Loupe pause, thank you.", "pause"],
  ])("%j → %s", (body, command) => {
    expect(parseCommand(body, BOT)).toEqual({ kind: "command", command, unknown: false });
  });

  it.each([
    ["@loupe"],
    ["@loupe please look again"],
    ["@loupe review everything twice"],
    ["@loupe reviewing"],
    ["@loupe please review everything twice"],
    ["@loupe please"],
  ])("%j asks for help", (body) => {
    expect(parseCommand(body, BOT)).toEqual({ kind: "command", command: "help", unknown: true });
  });

  it.each([
    ["no mention", "please review"],
    ["another login that starts like Loupe's", "@loupe-fan review"],
    ["an email address", "mail me at me@loupe review"],
    ["a quoted command", "> @loupe review\nI agree"],
    ["a command in a code span", "type `@loupe review` to ask again"],
    ["a command in a fenced block", "```\n@loupe full review\n```"],
    ["a tilde fence", "~~~md\n@loupe pause\n~~~"],
  ])("ignores %s", (_name, body) => {
    expect(parseCommand(body, BOT)).toEqual({ kind: "none" });
  });

  it("reads the text after an unclosed fence as code (as GitHub renders it)", () => {
    expect(readableText("```\n@loupe review")).toBe("");
  });

  it("takes the first mention", () => {
    expect(parseCommand("@loupe pause and later @loupe resume", BOT)).toMatchObject({
      command: "help",
      unknown: true,
    });
    expect(parseCommand("@loupe pause\n@loupe resume", BOT)).toMatchObject({ command: "pause" });
  });

  it("mentionsBot sees a mention outside code only", () => {
    expect(mentionsBot("what do you think, @loupe?", BOT)).toBe(true);
    expect(mentionsBot("`@loupe`", BOT)).toBe(false);
  });
});

describe("decideAuthor", () => {
  const person = (role: AuthorRole | null, login = "octocat", type = "User") => ({ login, type, role });

  // Members and collaborators include people who can only read: every person is asked about.
  it.each(["owner", "member", "collaborator", "contributor", "first_timer", "none", null] as const)(
    "%s is checked with the permission API",
    (role) => {
      expect(decideAuthor(person(role), BOT)).toEqual({ kind: "check_permission", login: "octocat" });
    },
  );

  it("never answers itself or another bot, even an owner bot", () => {
    expect(decideAuthor(person("owner", "loupe[bot]", "Bot"), BOT)).toEqual({
      kind: "ignored",
      reason: "self",
    });
    expect(decideAuthor(person("owner", "dependabot[bot]", "Bot"), BOT)).toEqual({
      kind: "ignored",
      reason: "bot",
    });
    expect(decideAuthor(person("member", "renovate[bot]", "User"), BOT)).toEqual({
      kind: "ignored",
      reason: "bot",
    });
    expect(decideAuthor(person("owner", ""), BOT)).toEqual({ kind: "ignored", reason: "no_login" });
  });

  it("canWrite accepts write, maintain and admin only", () => {
    expect(canWrite({ permission: "write", role_name: "write" })).toBe(true);
    expect(canWrite({ permission: "admin", role_name: "admin" })).toBe(true);
    expect(canWrite({ permission: "write", role_name: "maintain" })).toBe(true);
    expect(canWrite({ permission: "read", role_name: "triage" })).toBe(false);
    expect(canWrite({ permission: "read", role_name: "read" })).toBe(false);
    expect(canWrite({ permission: "none", role_name: "none" })).toBe(false);
    expect(canWrite({ permission: "write" })).toBe(true); // an answer without role_name
    expect(canWrite({})).toBe(false);
  });

  it("canWrite reads a base role_name first, and a custom role by the permission it is built on", () => {
    expect(canWrite({ permission: "write", role_name: "read" })).toBe(false);
    expect(canWrite({ permission: "read", role_name: "maintain" })).toBe(true);
    expect(canWrite({ permission: "write", role_name: "release-manager" })).toBe(true);
    expect(canWrite({ permission: "read", role_name: "security-auditor" })).toBe(false);
    expect(canWrite({ permission: "maintain", role_name: "custom" })).toBe(false); // not a legacy level
  });
});
