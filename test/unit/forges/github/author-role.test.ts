// GitHub's author_association in Loupe's words: every word GitHub documents has its role, and a word
// Loupe does not know trusts nobody.

import { describe, expect, it } from "@jest/globals";
import { authorRole } from "../../../../src/forges/github/webhooks/author-role.ts";

describe("authorRole", () => {
  it.each([
    ["OWNER", "owner"],
    ["MEMBER", "member"],
    ["COLLABORATOR", "collaborator"],
    ["CONTRIBUTOR", "contributor"],
    ["FIRST_TIME_CONTRIBUTOR", "first_timer"],
    ["FIRST_TIMER", "first_timer"],
    ["MANNEQUIN", "none"],
    ["NONE", "none"],
  ])("%s is %s", (association, role) => {
    expect(authorRole(association)).toBe(role);
  });

  it("reads an absent, malformed or unknown association as none", () => {
    for (const association of [undefined, null, 3, "", "owner", "SOMETHING_NEW", "constructor"])
      expect(authorRole(association)).toBe("none");
  });
});
