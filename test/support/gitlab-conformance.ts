// The shared GitLab quick-action checker (../shared/conformance/gitlab-quick-actions.mjs, beside the
// project) over texts Loupe sent to GitLab: every `/word` GitLab's regex era or its markdown era
// (cmark-gfm) would run, as the checker prints it, and its exit status (0: none).

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cmarkJudges } from "./gfm-oracle.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const QUICK_ACTION_CHECKER = path.resolve(ROOT, "../shared/conformance/gitlab-quick-actions.mjs");

export interface CheckerVerdict {
  readonly status: number | null;
  readonly output: string;
}

/** The checker's verdict on `texts`, each its own file; `--any` counts every /word, not only known names. */
export function checkQuickActions(texts: readonly string[]): CheckerVerdict {
  cmarkJudges();
  if (!fs.existsSync(QUICK_ACTION_CHECKER))
    throw new Error(`the shared GitLab quick-action checker is not at ${QUICK_ACTION_CHECKER}`);
  if (texts.length === 0) return { status: 0, output: "no text" };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-gitlab-notes-"));
  try {
    const files = texts.map((text, i) => {
      const file = path.join(dir, `text-${i}.md`);
      fs.writeFileSync(file, text);
      return file;
    });
    const run = spawnSync(process.execPath, [QUICK_ACTION_CHECKER, "--any", ...files], { encoding: "utf8" });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
