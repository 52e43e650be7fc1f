// Who may start an automatic review by opening or pushing to a pull request. Every automatic review
// spends the operator's money, and on a public repository anyone can open pull requests: a
// stranger opening fifty of them would spend it fifty times. A person with write access can always
// ask for a review of any pull request with a command; this policy only holds back the automatic one.

import type { AuthorRole } from "./author-role.ts";

export const AUTHOR_POLICIES = ["everyone", "members", "writers"] as const;

/**
 * `everyone`: any author. `members`: the repository's owners, its organisation's members and its
 * collaborators (the author's role). `writers`: write access or more.
 */
export type AuthorPolicy = (typeof AUTHOR_POLICIES)[number];

/** Safe for public repositories: strangers' pull requests wait for a writer's command. */
export const DEFAULT_AUTHOR_POLICY: AuthorPolicy = "members";

export interface PullRequestAuthor {
  /** null when the host does not say (a deleted account, a local change). */
  readonly login: string | null;
  readonly isBot: boolean;
  /** Who the author is to the repository, as the forge says it. */
  readonly role: AuthorRole;
}

const MEMBER_ROLES: ReadonlySet<AuthorRole> = new Set(["owner", "member", "collaborator"]);

/** The stricter of two policies: a repository may tighten the operator's, never loosen it. */
export function stricterPolicy(a: AuthorPolicy, b: AuthorPolicy): AuthorPolicy {
  return AUTHOR_POLICIES.indexOf(a) >= AUTHOR_POLICIES.indexOf(b) ? a : b;
}

/** What the policy says of an author before any lookup: yes, no, or ask the host for write access. */
export function authorVerdict(
  policy: AuthorPolicy,
  author: PullRequestAuthor,
): "allowed" | "refused" | "ask" {
  if (policy === "everyone") return "allowed";
  if (policy === "members") return MEMBER_ROLES.has(author.role) ? "allowed" : "refused";
  if (author.role === "owner") return "allowed";
  return author.login === null ? "refused" : "ask";
}
