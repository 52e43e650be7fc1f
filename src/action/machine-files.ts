// The review for machines, as files a later step reads: the agents' JSON
// (docs/review-result.schema.json), always, and SARIF 2.1.0 when the workflow names a file for it
// (to upload with github/codeql-action/upload-sarif). Their paths are the step's outputs
// `result-file` and `sarif-file`. A relative path is the workspace's, as every step's is.

import fs from "node:fs";
import path from "node:path";
import { loupeTool } from "../config/loupe-version.ts";
import { LoupeError } from "../domain/errors.ts";
import { GITHUB_WORDS } from "../forges/github/words.ts";
import { reviewDocument, reviewSarif } from "../pipeline/machine-review.ts";
import type { ReviewOutcome } from "../pipeline/review-outcome.ts";

export const MACHINE_INPUTS = ["sarif-file", "result-file"] as const;

export interface MachineFiles {
  /** Where the agents' JSON goes: the input, else the runner's temporary directory; null: nowhere. */
  readonly result: string | null;
  readonly sarif: string | null;
}

type Env = Readonly<Record<string, string | undefined>>;

/** As action-inputs.ts reads an input (not imported from there: that module lists these). */
const input = (env: Env, name: string) => (env[`INPUT_${name.toUpperCase()}`] ?? "").trim();

function filePath(env: Env, name: string, text: string): string {
  if (text.includes("\0")) throw new LoupeError("configuration_invalid", `input ${name} is not a file path`);
  return path.resolve((env.GITHUB_WORKSPACE ?? "").trim() || process.cwd(), text);
}

export function readMachineFiles(env: Env): MachineFiles {
  const result = input(env, "result-file");
  const sarif = input(env, "sarif-file");
  const temp = (env.RUNNER_TEMP ?? "").trim();
  return {
    result:
      result !== ""
        ? filePath(env, "result-file", result)
        : temp === ""
          ? null
          : path.join(temp, "loupe-review.json"),
    sarif: sarif === "" ? null : filePath(env, "sarif-file", sarif),
  };
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, "utf8");
}

/** Writes the files; the step's outputs that name them. */
export function writeMachineFiles(files: MachineFiles, outcome: ReviewOutcome): Record<string, string> {
  const tool = loupeTool();
  const outputs: Record<string, string> = { "result-file": "", "sarif-file": "" };
  if (files.result !== null) {
    write(files.result, `${JSON.stringify(reviewDocument(outcome, tool, GITHUB_WORDS), null, 2)}\n`);
    outputs["result-file"] = files.result;
  }
  if (files.sarif !== null) {
    write(files.sarif, reviewSarif(outcome, tool, GITHUB_WORDS));
    outputs["sarif-file"] = files.sarif;
  }
  return outputs;
}
