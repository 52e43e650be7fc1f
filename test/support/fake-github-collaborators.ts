// GET /repos/{owner}/{repo}/collaborators/{username}/permission of the fake GitHub: the
// repository's owner is admin, the people a test names have the role it gives them, anyone else
// can read (a public repository). Answered as GitHub does: `role_name` is the role, `permission`
// the legacy level it maps to (maintain reads as write, triage as read).

export interface CollaboratorRepository {
  readonly owner: string;
  /** login → role: admin, maintain, write, triage or read. */
  readonly collaborators: Readonly<Record<string, string>>;
}

const LEGACY: Readonly<Record<string, string>> = {
  admin: "admin",
  maintain: "write",
  write: "write",
  triage: "read",
  read: "read",
};

export function collaboratorRoute(
  repository: CollaboratorRepository,
  method: string,
  rest: string,
): { readonly status: number; readonly body: unknown } | null {
  const match = /^\/collaborators\/([^/]+)\/permission$/.exec(rest);
  if (match === null || method !== "GET") return null;
  const login = decodeURIComponent(match[1]!);
  const named = Object.entries(repository.collaborators).find(
    ([name]) => name.toLowerCase() === login.toLowerCase(),
  );
  const role = login.toLowerCase() === repository.owner.toLowerCase() ? "admin" : (named?.[1] ?? "read");
  return {
    status: 200,
    body: { permission: LEGACY[role] ?? "read", role_name: role, user: { login, type: "User" } },
  };
}
