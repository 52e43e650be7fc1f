// `loupe eval prepare --golden DIR --out MANIFEST`: reads the benchmark's golden files and asks
// GitHub, once, for each pull request's base and head commits and its repository's clone URL.
// The client is Probot's Octokit (a plain dependency of the `loupe` command, with the same
// throttling and retry plugins as the Action's `@octokit/rest` client, which is optional).

import fs from "node:fs/promises";
import path from "node:path";
import { ProbotOctokit } from "probot";
import type { CliIo } from "../cli/io.ts";
import { LoupeError } from "../domain/errors.ts";
import { registerSecret } from "../domain/redact.ts";
import type { GitHubClient } from "../github/octokit.ts";
import { type EvalArgs, one } from "./eval-args.ts";
import { writeJson } from "./eval-files.ts";
import { type GoldenPull, parseGoldenFile, pullAddress, pullKey } from "./golden-file.ts";
import type { ManifestPull } from "./manifest.ts";

export async function runEvalPrepare(args: EvalArgs, io: CliIo): Promise<number> {
  const golden = await readGolden(one(args, "golden"));
  const token = io.env.GITHUB_TOKEN;
  registerSecret(token);
  const github = new ProbotOctokit({
    baseUrl: io.env.GITHUB_API_URL || "https://api.github.com",
    ...(token ? { auth: { token } } : {}),
    throttle: { enabled: false },
  }) as GitHubClient;
  const pulls: ManifestPull[] = [];
  for (const pull of golden) {
    const address = pullAddress(pull.url)!;
    const { data } = await github.rest.pulls.get({
      owner: address.owner,
      repo: address.repo,
      pull_number: address.number,
    });
    pulls.push({
      key: pullKey(address),
      url: pull.url,
      title: pull.pr_title || data.title,
      clone_url: data.base.repo.clone_url,
      base: data.base.sha,
      head: data.head.sha,
      golden: pull.comments.map((c) => ({ comment: c.comment, severity: c.severity ?? null })),
    });
    io.stderr(`loupe eval: ${pull.url} → ${data.base.sha.slice(0, 12)}..${data.head.sha.slice(0, 12)}\n`);
  }
  await writeJson(one(args, "out"), { version: 1, pulls });
  const comments = pulls.reduce((n, p) => n + p.golden.length, 0);
  io.stdout(`${pulls.length} pull requests, ${comments} golden comments → ${one(args, "out")}\n`);
  return 0;
}

/** Every `*.json` of the directory, by name; a pull request listed twice is kept once. */
async function readGolden(dir: string): Promise<GoldenPull[]> {
  const names = await fs.readdir(dir).catch(() => {
    throw new LoupeError("usage_invalid", `cannot read the golden directory ${dir}`);
  });
  const pulls = new Map<string, GoldenPull>();
  for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
    const parsed = parseGoldenFile(await fs.readFile(path.join(dir, name), "utf8"));
    if (parsed.kind === "invalid") throw new LoupeError("usage_invalid", `${name} ${parsed.problem}`);
    // A pull request without golden comments has no recall to measure: the benchmark skips it too.
    for (const pull of parsed.pulls)
      if (pull.comments.length > 0 && !pulls.has(pull.url)) pulls.set(pull.url, pull);
  }
  if (pulls.size === 0) throw new LoupeError("usage_invalid", `no golden comments in ${dir}`);
  return [...pulls.values()];
}
