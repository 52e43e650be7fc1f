// The help texts of the `loupe` command, as plain strings: printing help must not load the tools,
// the workspace or the provider client. A test checks them against the tools' real schemas and
// the options each command parses, so they cannot drift.

export const COMMAND_NAMES = ["review", "tool", "config", "eval", "gitlab-ci", "sarif"] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** The options of each command that take a value; each command parses exactly these. */
export const VALUE_OPTIONS = {
  review: ["--repo", "--base", "--head", "--format", "--config"],
  tool: ["--repo", "--base", "--head", "--args"],
  config: ["--org", "--repo"],
  eval: ["--golden", "--out", "--manifest", "--variant", "--variants", "--runs", "--results", "--compare"],
  "gitlab-ci": ["--fail-on", "--fail-on-incomplete"],
  sarif: [],
} as const satisfies Record<CommandName, readonly string[]>;

export const MAIN_HELP = `loupe: review a change locally the way the Loupe GitHub App reviews pull requests

usage: loupe <command> [options]

commands:
  review   run the whole review (the model and the four repository tools) on a local
           repository and print what the App would post
  tool     run one repository tool exactly as the model would call it and print its result
  config   check a repository's .github/loupe.yml with the organisation's, or show the merged
           settings for a path (no provider needed)
  eval     measure review quality on Martian's offline code-review benchmark
  gitlab-ci  review the merge request of a GitLab merge request pipeline and publish the
           review on it (the CI/CD component's job: templates/review.yml)
  sarif    validate a SARIF file against the SARIF 2.1.0 schema and GitHub's code scanning
           upload limits

options:
  -h, --help      show this help (also: loupe <command> --help, loupe help <command>)
  -V, --version   print Loupe's version

examples:
  loupe review --repo . --base main --head HEAD --format markdown
  loupe tool search_repository --repo . --base main --head HEAD --args '{"query":"TODO"}'
  loupe config check
  loupe sarif validate loupe.sarif
`;

const REPOSITORY_OPTIONS = `  --repo <dir-or-url>  a local repository (work tree, bare repository or linked worktree, any
                       directory inside it), or an http(s) clone URL (then --base and --head
                       must be full 40-hex SHAs; LOUPE_GIT_TOKEN is sent as a header)
  --base <rev>         the branch the change goes into (a branch, tag or SHA)
  --head <rev>         the change's last commit; the diff is merge-base(base, head) → head`;

export const REVIEW_HELP = `usage: loupe review --repo <dir-or-url> --base <rev> --head <rev> [options]

Runs the review loop with the provider configured in the environment on the change from
merge-base(base, head) to head, then plans the result the way the App does: .github/loupe.yml is
read from the base revision (as the App reads it from the default branch; from the merge-base for
a clone URL), its paths, instructions, min_severity and max_findings apply, and the markdown shows
the review body and each inline comment the App would post.

options:
${REPOSITORY_OPTIONS}
  --config <file>      use this file instead of .github/loupe.yml at the base revision (to try a
                       configuration before committing it)
  --format <fmt>       markdown (what the App would post), json (the loop result and the plan,
                       with the agents' fields of docs/review-result.schema.json) or sarif
                       (SARIF 2.1.0 for code scanning); default json
  --no-trace           leave the round-by-round trace out of the json output
  -h, --help           show this help

environment: OPENAI_BASE_URL, OPENAI_API_KEY, REVIEW_MODEL and the REVIEW_* limits, as for the
App (see docs/configuration.md).

exit status: 0 the model returned a final review, or the App would skip the change,
             1 the review ended for another reason, 2 bad usage or configuration
`;

export const TOOL_HELP = `usage: loupe tool <name> --repo <dir-or-url> --base <rev> --head <rev> [--args '<json>']

Runs one repository tool exactly as the model would call it and prints the tool message the model
would receive, as one JSON line (a tool-level {"ok":false,...} included, with exit status 0).

tools and their --args (a JSON object; unknown keys are refused):
  list_repository_files  {"path"?: "dir", "limit"?: 1-200 (100), "cursor"?: "last path of a page"}
  read_repository_file   {"path": "file", "start_line"?: >=1 (1), "end_line"?: >=1}
  search_repository      {"query": "literal text", "path"?: "dir or file", "limit"?: 1-100 (50)}
  inspect_git_diff       {"paths"?: ["file", ...] (at most 50), "max_bytes"?: 1-131072 (65536)}

options:
${REPOSITORY_OPTIONS}
  --args <json>        the tool's arguments; default {}
  -h, --help           show this help

exit status: 0 the tool ran (whatever it answered), 1 a fault, 2 bad usage
`;

export const CONFIG_HELP = `usage: loupe config check [--org <file>] [FILE]
       loupe config show [--org <file>] [--repo <file>] PATH

check: checks a repository configuration (default: .github/loupe.yml in the current directory)
with the App's own parser and schema and, with --org, together with the organisation's file (the
.github/loupe.yml of the owner's .github repository): every error of both, each naming its file.
show: prints the settings a changed file PATH would be reviewed with, the two files merged as the
App merges them, and which layer set each value (a default, the organisation, the repository, or a
directory rule). Needs no provider and no repository.

options:
  --org <file>         the organisation's file (none: no organisation layer)
  --repo <file>        show: the repository's file (default: .github/loupe.yml here, if any)
  -h, --help           show this help

exit status: 0 valid (or no .github/loupe.yml: the defaults apply), 2 invalid (every error on
             stderr, one per line) or bad usage
`;

export const EVAL_HELP = `usage: loupe eval prepare|run|judge|report [options]

Measures review quality on Martian's offline code-review benchmark (docs/measuring-quality.md).

  loupe eval prepare --golden <dir> --out <manifest>
  loupe eval run --manifest <manifest> --variant <name> [--variants <file>] [--runs <n>] --out <dir>
  loupe eval judge --results <dir> --manifest <manifest>
  loupe eval report --results <dir> [--compare <variant-a> <variant-b>] [--json]

options:
  --golden <dir>       a checkout's offline/golden_comments (every *.json)
  --out <path>         the manifest to write (prepare), or the results directory (run)
  --manifest <file>    the manifest prepare wrote
  --variant <name>     the name of this set of review settings (a folder of the results)
  --variants <file>    JSON: {"<name>": {"REVIEW_VERIFY": "off", ...}}, settings over the environment
  --runs <n>           reviews of each pull request, 1 to 100; default 1
  --results <dir>      the results directory run wrote
  --compare <a> <b>    a paired comparison of two variants (a minus b)
  --json               the report as JSON instead of a table
  -h, --help           show this help

prepare keeps each pull request it resolves in <manifest>.progress.json: a run stopped by the
network or GitHub's rate limit resumes where it stopped when run again.

environment: GITHUB_TOKEN, GITHUB_API_URL (prepare); the provider and REVIEW_* settings as for
loupe review (run); JUDGE_BASE_URL, JUDGE_API_KEY, JUDGE_MODEL, JUDGE_CONCURRENCY (judge).

exit status: 0 done, 1 some pull requests, reviews or judgements failed (run the step again to
             retry them), 2 bad usage or configuration
`;

export const GITLAB_CI_HELP = `usage: loupe gitlab-ci [--fail-on <severity>] [--fail-on-incomplete <true|false>]

Runs in a GitLab merge request pipeline (the CI/CD component templates/review.yml): reviews the
merge request the pipeline is for, as the App reviews one, and publishes the review on it (draft
notes published together, the summary note). The job is the merge request's status: Loupe sets
no commit status of its own. The configuration (.gitlab/loupe.yml) and guidance are read from the
default branch through GitLab's API, and the two commits are fetched from the target project:
nothing of the job's checkout is read.

options:
  --fail-on <severity>           fail the job when a finding reaches it (critical, high, medium,
                                 low, info); empty: the repository's fail_on
  --fail-on-incomplete <bool>    fail the job when the review could not complete (budget,
                                 provider, time); default false
  -h, --help                     show this help

environment: GITLAB_TOKEN (a project or group access token, Developer, api scope, in a masked
CI/CD variable: a job token cannot post notes; without it the job says so and exits 0), GitLab's
predefined CI_SERVER_URL, CI_MERGE_REQUEST_PROJECT_PATH, CI_MERGE_REQUEST_IID and
CI_COMMIT_SHA, and OPENAI_BASE_URL, OPENAI_API_KEY, REVIEW_MODEL and the REVIEW_* limits, as for
the App (see docs/gitlab.md).

exit status: 0 reviewed (or skipped, or no GITLAB_TOKEN), 1 a finding reached --fail-on (else the
             repository's fail_on), the configuration is invalid, or --fail-on-incomplete and the
             review is incomplete, 2 bad usage or configuration
`;

export const SARIF_HELP = `usage: loupe sarif validate FILE

Validates a SARIF file (one Loupe wrote with --format sarif or the Action's sarif-file, or any
other tool's) against the official SARIF 2.1.0 schema (OASIS, JSON Schema draft-04) and what
GitHub's code scanning documents for one upload: at most 20 runs, 25,000 results and 25,000 rules
per run, 1,000 locations per result, 20 tags per rule, 10 MB; each result with a message, a rule
the run declares, a partial fingerprint and a relative path with a line.

options:
  -h, --help   show this help

exit status: 0 valid, 1 invalid (one line per problem on stderr: FILE: problem), 2 bad usage or a
             file that cannot be read
`;

export const COMMAND_HELP: Readonly<Record<CommandName, string>> = {
  review: REVIEW_HELP,
  tool: TOOL_HELP,
  config: CONFIG_HELP,
  eval: EVAL_HELP,
  "gitlab-ci": GITLAB_CI_HELP,
  sarif: SARIF_HELP,
};

export function isCommandName(name: string | undefined): name is CommandName {
  return (COMMAND_NAMES as readonly (string | undefined)[]).includes(name);
}

/**
 * True when the arguments ask for help: `-h`/`--help` where an option name may stand (never as
 * the value of an option, so `--args --help` is still the tool's bad JSON).
 */
export function asksForHelp(argv: readonly string[], command: CommandName): boolean {
  const valueOptions: readonly string[] = VALUE_OPTIONS[command];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === "-h" || arg === "--help") return true;
    if (valueOptions.includes(arg)) index += 1;
  }
  return false;
}
