// The path rules every repository tool applies to a model-supplied path, before anything is
// looked up. Pure string checks: symlinks are resolved afterwards, over the tree, by the tools.
//
// Normalisation (documented in docs/tools.md): a path of `.` or `./` names the root, leading
// `./` prefixes are removed, and one trailing `/` is removed (`src/` = `src`). Everything else
// that is not already a canonical repository path is refused with its own message.

export type PathCheck = { ok: true; path: string } | { ok: false; code: "invalid_path"; message: string };

/** Longer paths cannot name anything git stores in practice; refuse them before splitting. */
export const MAX_PATH_LENGTH = 4096;

function invalid(message: string): PathCheck {
  return { ok: false, code: "invalid_path", message };
}

/** True for a `.git` segment in any letter case (`.GIT` is the same directory on many disks). */
export function isGitSegment(segment: string): boolean {
  return segment.toLowerCase() === ".git";
}

export function checkRepositoryPath(raw: string, options?: { allowEmpty?: boolean }): PathCheck {
  if (typeof raw !== "string") return invalid("Path must be a string.");
  if (raw.length > MAX_PATH_LENGTH) return invalid(`Path is longer than ${MAX_PATH_LENGTH} characters.`);
  if (raw.includes("\0")) return invalid("Path must not contain NUL characters.");
  if (raw.startsWith("\\\\")) return invalid("UNC paths (\\\\server\\share) are not allowed.");
  if (raw.includes("\\")) return invalid("Path must use '/' separators; backslashes are not allowed.");
  if (/^[A-Za-z]:/.test(raw)) return invalid("Drive-letter paths (C:) are not allowed.");
  if (raw.startsWith("/")) return invalid("Path must be repository-relative, not absolute.");

  let path = raw;
  while (path.startsWith("./")) path = path.slice(2);
  if (path === ".") path = "";
  if (path.endsWith("/") && path.length > 1) path = path.slice(0, -1);
  if (path === "") {
    return options?.allowEmpty === true
      ? { ok: true, path: "" }
      : invalid("Path must not be empty; name a file relative to the repository root.");
  }

  for (const segment of path.split("/")) {
    if (segment === "") return invalid("Path must not contain empty segments ('//').");
    if (segment === "..") return invalid("Path must not contain '..' segments.");
    if (segment === ".") return invalid("Path must not contain '.' segments except a leading './'.");
    if (isGitSegment(segment)) return invalid("Paths inside .git are not available.");
  }
  return { ok: true, path };
}
