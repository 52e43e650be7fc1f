// Who may make Loupe act — pause or resume it, spend a review, get a thread reply: people who can
// write to the repository, as GitHub's collaborator permission endpoint says. The author's role
// (domain/author-role.ts) is not enough: a member is anyone in the organisation and a collaborator
// anyone invited to the repository, read-only ones included. So every person is looked up (the
// answer is cached for a short time, permission-cache.ts). Bots, Loupe included, are never
// answered: two bots must not talk forever.

import type { AuthorRole } from "../domain/author-role.ts";

export interface CommentAuthor {
  readonly login: string | null;
  readonly type: string | null;
  /** null when the forge does not say (GitLab's note events). */
  readonly role: AuthorRole | null;
}

export type AuthorDecision =
  | { readonly kind: "check_permission"; readonly login: string }
  | { readonly kind: "ignored"; readonly reason: "bot" | "self" | "no_login" };

export function decideAuthor(author: CommentAuthor, botLogin: string): AuthorDecision {
  if (author.login === null || author.login === "") return { kind: "ignored", reason: "no_login" };
  if (author.login.toLowerCase() === botLogin.toLowerCase()) return { kind: "ignored", reason: "self" };
  if (author.type === "Bot" || /\[bot\]$/i.test(author.login)) return { kind: "ignored", reason: "bot" };
  return { kind: "check_permission", login: author.login };
}

const WRITE_ROLES: ReadonlySet<string> = new Set(["admin", "maintain", "write"]);
const BASE_ROLES: ReadonlySet<string> = new Set([...WRITE_ROLES, "triage", "read", "none"]);

/**
 * From GET …/collaborators/{username}/permission: `role_name` is the person's role (admin,
 * maintain, write, triage, read, or an organisation's custom role); `permission` is the legacy
 * level it maps to (admin, write, read, none: maintain reads as write, triage as read). A base
 * role decides by itself; a custom role by the level it is built on.
 */
export function canWrite(answer: { readonly permission?: unknown; readonly role_name?: unknown }): boolean {
  const role = answer.role_name;
  if (typeof role === "string" && BASE_ROLES.has(role)) return WRITE_ROLES.has(role);
  return answer.permission === "admin" || answer.permission === "write";
}
