// `loupe eval run`: each pull request of the manifest reviewed N times by `loupe review` itself
// (the same command, in this process, with the variant's settings over the environment), so an
// eval measures exactly the review users get. A pull request and run with a result file is
// skipped; a review that fails (a fetch, say) writes none and is tried again next time.

import fs from "node:fs/promises";
import path from "node:path";
import type { CliIo } from "../cli/io.ts";
import { runReviewCommand } from "../cli/review-command.ts";
import { LoupeError } from "../domain/errors.ts";
import { type EvalArgs, one, positiveInteger } from "./eval-args.ts";
import { exists, readManifest, resultName, writeJson } from "./eval-files.ts";
import { runRecord } from "./run-record.ts";

export async function runEvalRun(args: EvalArgs, io: CliIo): Promise<number> {
  const manifest = await readManifest(one(args, "manifest"));
  const variant = one(args, "variant");
  if (!/^[A-Za-z0-9._-]+$/.test(variant))
    throw new LoupeError("usage_invalid", "--variant must be a plain name");
  const overrides = await variantOverrides(args.variants?.[0], variant);
  const runs = positiveInteger(args.runs?.[0], 1, "runs");
  const dir = path.join(one(args, "out"), variant);
  let failed = 0;
  let done = 0;
  for (let run = 1; run <= runs; run++) {
    for (const pull of manifest.pulls) {
      const file = path.join(dir, resultName(pull.key, run));
      if (await exists(file)) continue;
      let printed = "";
      const started = performance.now();
      try {
        await runReviewCommand(["--repo", pull.clone_url, "--base", pull.base, "--head", pull.head], {
          stdout: (text) => {
            printed += text;
          },
          stderr: () => {},
          env: { ...io.env, ...overrides },
        });
      } catch (error) {
        failed++;
        io.stderr(
          `loupe eval: ${pull.url} run ${run} failed: ${error instanceof Error ? error.message : error}\n`,
        );
        continue;
      }
      const seconds = (performance.now() - started) / 1000;
      const where = { key: pull.key, url: pull.url, variant, run, seconds };
      const record = runRecord(where, JSON.parse(printed));
      await writeJson(file, record);
      io.stderr(
        `loupe eval: ${variant} ${pull.key} run ${run}: ${record.stop_reason}, ${record.findings.length} findings, ${Math.round(seconds)} s\n`,
      );
      done++;
    }
  }
  io.stdout(
    `${done} reviews written to ${dir}${failed > 0 ? `, ${failed} failed (run again to retry)` : ""}\n`,
  );
  return failed > 0 ? 1 : 0;
}

/** A variant is a named set of environment overrides; a name absent from the file is an error. */
async function variantOverrides(file: string | undefined, variant: string): Promise<Record<string, string>> {
  if (file === undefined) return {};
  let variants: unknown;
  try {
    variants = JSON.parse(await fs.readFile(file, "utf8"));
  } catch {
    throw new LoupeError("usage_invalid", `cannot read the variants file ${file} as JSON`);
  }
  const chosen = (variants as Record<string, unknown> | null)?.[variant];
  const valid =
    typeof chosen === "object" &&
    chosen !== null &&
    Object.values(chosen).every((value) => typeof value === "string");
  if (!valid) throw new LoupeError("usage_invalid", `${file} has no variant ${variant} of string settings`);
  return chosen as Record<string, string>;
}
