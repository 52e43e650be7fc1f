// The only links Loupe keeps clickable: https URLs into the reviewed repository on its own host,
// and not to an issue, pull request or discussion (a link there adds a cross-reference to that
// timeline). Everything else is shown as a code span: visible, not clickable.

import type { Inline } from "./markdown-tree.ts";
import type { ReferenceSyntax } from "./wide-references.ts";

export interface RepositoryRef {
  readonly owner: string;
  readonly repo: string;
  readonly host: string;
  /** How the host links references in rendered text (wide-references.ts); absent: as GitHub does. */
  readonly references?: ReferenceSyntax;
}

/** The URL re-serialised with only URL-safe ASCII, or null when it must not be a link. */
export function repositoryHref(url: string, repository: RepositoryRef | null): string | null {
  if (repository === null || repository.owner === "" || repository.repo === "" || repository.host === "")
    return null;
  // Only absolute https URLs: a relative or protocol-relative one ("//host/…") has no base here.
  if (!/^https:\/\/[^/\\]/i.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "https:" || parsed.username !== "" || parsed.password !== "") return null;
  if (parsed.port !== "" || parsed.hostname.toLowerCase() !== repository.host.toLowerCase()) return null;
  const prefix = `/${repository.owner}/${repository.repo}`.toLowerCase();
  const path = parsed.pathname.toLowerCase();
  if (path !== prefix && !path.startsWith(`${prefix}/`)) return null;
  const rest = path.slice(prefix.length);
  if (/^\/(?:issues|pull|pulls|discussions)(?:\/|$)/.test(rest)) return null;
  // Such a host links every /-/ page of a project as a reference (an issue, a merge request, an
  // epic, a snippet…): only the code's own pages stay links there.
  if (
    repository.references === "wide" &&
    /^\/-(?:\/|$)/.test(rest) &&
    !/^\/-\/(?:blob|tree|raw|blame|commits?)\//.test(rest)
  )
    return null;
  // Anything outside unreserved and reserved ASCII is percent-encoded, so the destination holds no
  // space, `<`, `>`, `\` or backtick that could end it or be read as Markdown.
  return parsed.href.replace(/[^A-Za-z0-9\-._~:/?#@!$&'()*+,;=%]/g, (c) =>
    Array.from(new TextEncoder().encode(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(
      "",
    ),
  );
}

export function repositoryLink(
  url: string,
  repository: RepositoryRef | null,
  children: readonly Inline[],
): Inline | null {
  const href = repositoryHref(url, repository);
  return href === null ? null : { type: "link", href, children };
}
