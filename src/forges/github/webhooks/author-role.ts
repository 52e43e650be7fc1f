// GitHub's `author_association` in Loupe's words. Webhooks and the pulls API both carry it; it says
// who the person is to the repository, never whether they can write (conversation/permission.ts).

import type { AuthorRole } from "../../../domain/author-role.ts";

const ROLES: ReadonlyMap<string, AuthorRole> = new Map(
  Object.entries({
    OWNER: "owner",
    MEMBER: "member",
    COLLABORATOR: "collaborator",
    CONTRIBUTOR: "contributor",
    // A first contribution to this repository, and a first contribution to GitHub at all.
    FIRST_TIME_CONTRIBUTOR: "first_timer",
    FIRST_TIMER: "first_timer",
    // A placeholder user of an import, who never signed in: nobody the repository knows.
    MANNEQUIN: "none",
    NONE: "none",
  } as const),
);

/**
 * The role for an association, `none` when it is absent or a word GitHub added later: an unknown
 * word must not trust an author the policy would otherwise hold back.
 */
export function authorRole(association: unknown): AuthorRole {
  return typeof association === "string" ? (ROLES.get(association) ?? "none") : "none";
}
