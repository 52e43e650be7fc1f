// Who may make Loupe spend tokens: people who can write to the repository. The webhook's
// `author_association` settles the common cases without an API call; anything else (an outside
// contributor, NONE, a value GitHub adds later, or none at all) is checked with the collaborator
// permission endpoint. Bots, Loupe included, are never answered: two bots must not talk forever.

export interface CommentAuthor {
  readonly login: string | null;
  readonly type: string | null;
  readonly authorAssociation: string | null;
}

export type AuthorDecision =
  | { readonly kind: "allowed" }
  | { readonly kind: "check_permission"; readonly login: string }
  | { readonly kind: "ignored"; readonly reason: "bot" | "self" | "no_login" };

const WRITERS: ReadonlySet<string> = new Set(["OWNER", "MEMBER", "COLLABORATOR"]);

export function decideAuthor(author: CommentAuthor, botLogin: string): AuthorDecision {
  if (author.login === null || author.login === "") return { kind: "ignored", reason: "no_login" };
  if (author.login.toLowerCase() === botLogin.toLowerCase()) return { kind: "ignored", reason: "self" };
  if (author.type === "Bot" || /\[bot\]$/i.test(author.login)) return { kind: "ignored", reason: "bot" };
  if (author.authorAssociation !== null && WRITERS.has(author.authorAssociation)) return { kind: "allowed" };
  return { kind: "check_permission", login: author.login };
}

/** `permission` (admin/write/read/none) or the finer `role_name` of GET …/collaborators/{u}/permission. */
export function canWrite(answer: { readonly permission?: unknown; readonly role_name?: unknown }): boolean {
  const values = [answer.permission, answer.role_name];
  return values.some((v) => v === "admin" || v === "maintain" || v === "write");
}
