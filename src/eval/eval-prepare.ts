// `loupe eval prepare --golden DIR --out MANIFEST`: reads the benchmark's golden files and asks
// GitHub, once, for each pull request's base and head commits and its repository's clone URL.
// The client is Probot's Octokit (a plain dependency of the `loupe` command), without its silent
// retries: a network failure stops the run at once with the pull request, the host and what to set
// (prepare-failure.ts), and every pull request resolved so far is kept for the next run
// (prepare-kept.ts), so a tokenless user's 60 requests an hour are never spent twice.

import { setTimeout as sleep } from "node:timers/promises";
import { ProbotOctokit } from "probot";
import type { CliIo } from "../cli/io.ts";
import { httpUrl } from "../config/http-url.ts";
import { registerSecret } from "../domain/redact.ts";
import type { GitHubClient } from "../forges/github/octokit.ts";
import { type EvalArgs, one } from "./eval-args.ts";
import { writeJson } from "./eval-files.ts";
import { type GoldenPull, pullAddress, pullKey } from "./golden-file.ts";
import { readGoldenSet } from "./golden-set.ts";
import type { ManifestPull } from "./manifest.ts";
import { describeFailure } from "./prepare-failure.ts";
import { progressFile, readKept, removeProgress, writeProgress } from "./prepare-kept.ts";

/** One request's deadline: a silent network must not look like work. */
const REQUEST_DEADLINE_MS = 30_000;
/** A server error (5xx) is asked again this many times, after these pauses. */
const SERVER_ERROR_PAUSES_MS = [2_000, 8_000];

export async function runEvalPrepare(args: EvalArgs, io: CliIo): Promise<number> {
  const out = one(args, "out");
  const golden = await readGoldenSet(one(args, "golden"));
  const kept = await readKept(out);
  const apiUrl = httpUrl("GITHUB_API_URL", io.env.GITHUB_API_URL || "https://api.github.com");
  const host = new URL(apiUrl).host;
  const resolve = pullResolver(apiUrl, io.env.GITHUB_TOKEN);
  const todo = golden.pulls.filter((pull) => !kept.has(pull.url)).length;
  const reused = golden.pulls.length - todo;
  io.stderr(
    `loupe eval: golden set ${golden.hash}: ${golden.pulls.length} pull requests, ${reused} already resolved, ${todo} to ask ${host}\n`,
  );
  const pulls: ManifestPull[] = [];
  let asked = 0;
  for (const pull of golden.pulls) {
    const known = kept.get(pull.url);
    if (known !== undefined) {
      pulls.push(withGolden(known, pull));
      continue;
    }
    asked++;
    const resolved = await resolveWithRetries(resolve, pull, host, io);
    if (resolved.kind === "failed") {
      const saved =
        pulls.length === 0 ? "" : `; the ${pulls.length} resolved are kept in ${progressFile(out)}`;
      io.stderr(`loupe eval: ${resolved.message}\n`);
      io.stderr(`loupe eval: stopped at ${asked} of ${todo}${saved}: run the same command again to resume\n`);
      return 1;
    }
    pulls.push(resolved.pull);
    await writeProgress(out, pulls);
    const range = `${resolved.pull.base.slice(0, 12)}..${resolved.pull.head.slice(0, 12)}`;
    io.stderr(`loupe eval: [${asked}/${todo}] ${pull.url} → ${range}\n`);
  }
  await writeJson(out, { version: 1, golden_set: golden.hash, pulls });
  await removeProgress(out);
  const comments = pulls.reduce((n, p) => n + p.golden.length, 0);
  io.stdout(
    `${pulls.length} pull requests, ${comments} golden comments (golden set ${golden.hash}) → ${out}\n`,
  );
  return 0;
}

/** A kept resolution with the golden comments as the files say now. */
function withGolden(known: ManifestPull, pull: GoldenPull): ManifestPull {
  return {
    ...known,
    title: pull.pr_title || known.title,
    golden: pull.comments.map((c) => ({ comment: c.comment, severity: c.severity ?? null })),
  };
}

type Resolve = (pull: GoldenPull) => Promise<ManifestPull>;
type Resolved =
  | { readonly kind: "resolved"; readonly pull: ManifestPull }
  | { readonly kind: "failed"; readonly message: string };

async function resolveWithRetries(
  resolve: Resolve,
  pull: GoldenPull,
  host: string,
  io: CliIo,
): Promise<Resolved> {
  for (let attempt = 0; ; attempt++) {
    try {
      return { kind: "resolved", pull: await resolve(pull) };
    } catch (error) {
      const failure = describeFailure({ pull: pull.url, host, error });
      const pause = SERVER_ERROR_PAUSES_MS[attempt];
      if (!failure.retry || pause === undefined) return { kind: "failed", message: failure.message };
      io.stderr(`loupe eval: ${failure.message}; asking again in ${pause / 1000} s\n`);
      await sleep(pause);
    }
  }
}

function pullResolver(apiUrl: string, token: string | undefined): Resolve {
  registerSecret(token);
  const github = new ProbotOctokit({
    baseUrl: apiUrl,
    ...(token ? { auth: { token } } : {}),
    throttle: { enabled: false },
    // Octokit would retry a refused connection as a server error for 14 s, in silence.
    retry: { enabled: false },
  }) as GitHubClient;
  return async (pull) => {
    const address = pullAddress(pull.url)!;
    const { data } = await github.rest.pulls.get({
      owner: address.owner,
      repo: address.repo,
      pull_number: address.number,
      request: { signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) },
    });
    return withGolden(
      {
        key: pullKey(address),
        url: pull.url,
        title: data.title,
        clone_url: data.base.repo.clone_url,
        base: data.base.sha,
        head: data.head.sha,
        golden: [],
      },
      pull,
    );
  };
}
