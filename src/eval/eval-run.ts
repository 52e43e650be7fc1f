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
import type { ManifestPull } from "./manifest.ts";
import { type ReviewJson, runRecord } from "./run-record.ts";

export async function runEvalRun(args: EvalArgs, io: CliIo): Promise<number> {
  const manifest = await readManifest(one(args, "manifest"));
  const variant = one(args, "variant");
  if (!/^[A-Za-z0-9._-]+$/.test(variant))
    throw new LoupeError("usage_invalid", "--variant must be a plain name");
  const env = { ...io.env, ...(await variantOverrides(args.variants?.[0], variant)) };
  const runs = positiveInteger(args.runs?.[0], 1, "runs");
  const dir = path.join(one(args, "out"), variant);
  // An interrupt ends the review under way (loupe review's own handler) and then the whole run; the
  // interrupted review writes nothing, so the next run starts with it.
  let interrupted = false;
  const onSignal = (): void => {
    interrupted = true;
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  let failed = 0;
  let done = 0;
  try {
    for (let run = 1; run <= runs && !interrupted; run++) {
      for (const pull of manifest.pulls) {
        const file = path.join(dir, resultName(pull.key, run));
        if (interrupted || (await exists(file))) continue;
        const reviewed = await reviewOnce(pull, env);
        if (interrupted) break;
        if (reviewed.kind === "failed") {
          failed++;
          io.stderr(`loupe eval: ${pull.url} run ${run} failed: ${reviewed.message}\n`);
          continue;
        }
        const where = { key: pull.key, url: pull.url, variant, run, seconds: reviewed.seconds };
        const record = runRecord(where, reviewed.json);
        await writeJson(file, record);
        const figures = `${record.stop_reason}, ${record.findings.length} findings, ${Math.round(reviewed.seconds)} s`;
        io.stderr(`loupe eval: ${variant} ${pull.key} run ${run}: ${figures}\n`);
        done++;
      }
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  const failures = failed > 0 ? `, ${failed} failed (run again to retry)` : "";
  io.stdout(`${done} reviews written to ${dir}${failures}${interrupted ? ", interrupted" : ""}\n`);
  return failed > 0 || interrupted ? 1 : 0;
}

type Reviewed =
  | { readonly kind: "reviewed"; readonly json: ReviewJson; readonly seconds: number }
  | { readonly kind: "failed"; readonly message: string };

/** `loupe review --repo <clone URL> --base <sha> --head <sha>`, its JSON kept, its time measured. */
async function reviewOnce(pull: ManifestPull, env: NodeJS.ProcessEnv): Promise<Reviewed> {
  let printed = "";
  const started = performance.now();
  try {
    await runReviewCommand(["--repo", pull.clone_url, "--base", pull.base, "--head", pull.head], {
      stdout: (text) => {
        printed += text;
      },
      stderr: () => {},
      env,
    });
  } catch (error) {
    return { kind: "failed", message: error instanceof Error ? error.message : String(error) };
  }
  return { kind: "reviewed", json: JSON.parse(printed), seconds: (performance.now() - started) / 1000 };
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
