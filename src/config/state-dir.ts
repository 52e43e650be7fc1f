// LOUPE_STATE_DIR, checked at start: the journal of open check runs writes there at the first
// check run, so a directory Loupe cannot create or write would otherwise be found only then, with
// a review already under way. The check creates it and writes and removes one probe file.
//
// Not with fs.mkdirSync's `recursive`: on a file system that answers ENOENT to mkdir in a parent
// that exists (/proc), Node retries it forever at full CPU. Each missing level is made once here,
// at most MAX_NEW_LEVELS of them.

import fs from "node:fs";
import path from "node:path";
import { shown } from "./env-fields.ts";

const MAX_NEW_LEVELS = 32;

/** Makes `dir` and its missing parents, each once; throws the first error (ELOOP past the bound). */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dir); !fs.existsSync(at); at = path.dirname(at)) {
    if (missing.length === MAX_NEW_LEVELS || path.dirname(at) === at)
      throw Object.assign(new Error("too many levels to create"), { code: "ELOOP" });
    missing.unshift(at);
  }
  for (const level of missing) fs.mkdirSync(level);
}

/** An error line, or null when Loupe can create `dir` and write in it. */
export function stateDirProblem(dir: string): string | null {
  const probe = path.join(dir, `.loupe-write-check-${process.pid}`);
  try {
    makeDirectory(dir);
    fs.writeFileSync(probe, "");
    fs.rmSync(probe, { force: true });
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return (
      `LOUPE_STATE_DIR=${shown(dir)} cannot be created or written (${code}): ` +
      "create it and give Loupe's user write access to it, or unset LOUPE_STATE_DIR to keep no record"
    );
  }
}
