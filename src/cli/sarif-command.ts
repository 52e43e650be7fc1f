// `loupe sarif validate FILE`: whether a SARIF file is one GitHub's code scanning takes, by the
// official SARIF 2.1.0 schema and GitHub's documented upload limits (review/sarif-validation.ts,
// the check Loupe's own SARIF is tested with). Exit 0 valid, 1 with one line per problem on
// stderr, 2 bad usage or a file that cannot be read.

import fs from "node:fs";
import { LoupeError } from "../domain/errors.ts";
import { sarifProblems } from "../review/sarif-validation.ts";
import type { CliIo } from "./io.ts";

export async function runSarifCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const [action, file, ...extra] = argv;
  if (action !== "validate") {
    const what = action === undefined ? "no action given" : `unknown action ${JSON.stringify(action)}`;
    throw new LoupeError("usage_invalid", `loupe sarif: ${what} (the action is: validate FILE)`);
  }
  if (file === undefined || extra.length > 0 || file.startsWith("-")) {
    throw new LoupeError(
      "usage_invalid",
      `loupe sarif validate takes one FILE, not ${JSON.stringify(argv.slice(1).join(" "))}`,
    );
  }
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new LoupeError("usage_invalid", `loupe sarif validate: cannot read ${file} (${code})`);
  }
  const problems = sarifProblems(text);
  if (problems.length === 0) {
    io.stdout(`${file}: valid SARIF 2.1.0, within GitHub's code scanning limits\n`);
    return 0;
  }
  for (const problem of problems) io.stderr(`${file}: ${problem}\n`);
  return 1;
}
