// LOUPE_STATE_DIR, checked at start: the journal of open check runs writes there at the first
// check run, so a directory Loupe cannot create or write would otherwise be found only then, with
// a review already under way. The check creates it and writes and removes one probe file.

import fs from "node:fs";
import path from "node:path";
import { shown } from "./env-fields.ts";

/** An error line, or null when Loupe can create `dir` and write in it. */
export function stateDirProblem(dir: string): string | null {
  const probe = path.join(dir, `.loupe-write-check-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
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
