// `loupe gitlab-ci`: the job of Loupe's GitLab CI/CD component (templates/review.yml). It reviews
// the merge request of the merge request pipeline it runs in with the App's own GitLab runner
// (forge/run-review.ts with forges/gitlab/gitlab-review.ts), and publishes the same review — draft notes and the
// summary note — without a commit status: the job is the merge request's status. The job's
// checkout is never read: the configuration and guidance come from the default branch through
// GitLab's API, the two commits from the target project over git.
//
// GitLab's job token cannot post notes on a merge request, and a fork's pipeline runs in the fork
// without the project's variables: without GITLAB_TOKEN the job prints one line saying so and
// passes, so a contributor's pipeline is not failed for what only a maintainer can set.

import { CliSettingsSchema } from "../config/cli-settings.ts";
import { readEnvOrThrow } from "../config/read-env.ts";
import { LoupeError } from "../domain/errors.ts";
import { SEVERITIES, type Severity } from "../domain/finding.ts";
import { redactSecrets, registerSecret } from "../domain/redact.ts";
import { runReview } from "../forge/run-review.ts";
import { gitLabApi, NO_RETRY, tokenUser } from "../forges/gitlab/gitlab-api.ts";
import { gitLabReview } from "../forges/gitlab/gitlab-review.ts";
import { gateReached } from "../jobs/conclusion.ts";
import { createDefaultPorts } from "../jobs/default-ports.ts";
import { newJob } from "../jobs/review-job.ts";
import { VALUE_OPTIONS } from "./help.ts";
import type { CliIo } from "./io.ts";

export const NO_TOKEN_LINE =
  "loupe: GITLAB_TOKEN is not set, so no review: GitLab's job token cannot post merge request notes — " +
  "set a project or group access token (Developer role, api scope) as a masked CI/CD variable " +
  "GITLAB_TOKEN (a fork's pipeline gets none of the project's variables)\n";

interface CiArgs {
  readonly failOn: Severity | null;
  readonly failOnIncomplete: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runGitLabCiCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const token = io.env.GITLAB_TOKEN?.trim() ?? "";
  if (token === "") {
    io.stdout(NO_TOKEN_LINE);
    return 0;
  }
  registerSecret(token);
  const ci = readPipeline(io.env);
  const { provider, limits } = readEnvOrThrow(CliSettingsSchema, io.env);
  registerSecret(provider.apiKey);
  const ports = createDefaultPorts({ provider, limits });
  const gitlab = { url: ci.url, token, statusName: "Loupe" };
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once("SIGTERM", onSignal);
  try {
    const slash = ci.project.lastIndexOf("/");
    const job = newJob({
      owner: ci.project.slice(0, slash),
      repo: ci.project.slice(slash + 1),
      pullNumber: ci.iid,
      headSha: ci.headSha,
      deliveryId: `gitlab-ci:${ci.jobId}`,
      trigger: "merge_request.updated",
      // The pipeline is the project's own request for a review: drafts and authors do not hold it.
      rerun: true,
      pullRequest: null,
      forge: "gitlab",
    });
    const line = (fields: object, msg: string) =>
      io.stderr(redactSecrets(`loupe: ${msg} ${JSON.stringify(fields)}\n`));
    const log = { info: line, warn: line };
    const api = gitLabApi({ url: gitlab.url, token, retry: NO_RETRY });
    const settled = await runReview(
      {
        request: job.request,
        signal: controller.signal,
        ports,
        authorPolicy: "everyone",
        log,
        failOn: args.failOn,
      },
      await gitLabReview({
        ...{ job, ports, gitlab, log, sleep, now: Date.now },
        self: tokenUser(api),
        commitStatus: false,
      }),
    );
    const { ending, outcome } = settled;
    io.stdout(`${ending.output.title}\n\n${ending.output.summary}\n`);
    if (gateReached(outcome, args.failOn)) {
      io.stdout(
        args.failOn === null
          ? "A finding reached the repository's `fail_on` severity.\n"
          : `A finding reached the \`fail-on\` severity (${args.failOn}).\n`,
      );
      return 1;
    }
    if (ending.conclusion === "failure" || ending.conclusion === "action_required") return 1;
    if (ending.conclusion === "neutral" && args.failOnIncomplete) return 1;
    return 0;
  } finally {
    process.off("SIGTERM", onSignal);
  }
}

interface Pipeline {
  readonly url: string;
  readonly project: string;
  readonly iid: number;
  readonly headSha: string;
  readonly jobId: string;
}

/** GitLab's predefined variables of a merge request pipeline; outside one, one line says so. */
function readPipeline(env: NodeJS.ProcessEnv): Pipeline {
  const need = (name: string): string => {
    const value = env[name]?.trim() ?? "";
    if (value === "")
      throw new LoupeError(
        "usage_invalid",
        `${name} is not set: loupe gitlab-ci runs in a GitLab merge request pipeline ` +
          '(rules: if: $CI_PIPELINE_SOURCE == "merge_request_event")',
      );
    return value;
  };
  const iid = Number(need("CI_MERGE_REQUEST_IID"));
  if (!Number.isSafeInteger(iid) || iid <= 0)
    throw new LoupeError("usage_invalid", "CI_MERGE_REQUEST_IID is not a merge request's number");
  const project = need("CI_MERGE_REQUEST_PROJECT_PATH");
  if (!project.includes("/"))
    throw new LoupeError("usage_invalid", "CI_MERGE_REQUEST_PROJECT_PATH is not a project's path");
  return {
    url: need("CI_SERVER_URL").replace(/\/+$/, ""),
    project,
    iid,
    // A merged results pipeline's CI_COMMIT_SHA is the merge commit: the source branch's head is this.
    headSha: env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA?.trim() || need("CI_COMMIT_SHA"),
    jobId: env.CI_JOB_ID?.trim() || "local",
  };
}

function parseArgs(argv: readonly string[]): CiArgs {
  const options: readonly string[] = VALUE_OPTIONS["gitlab-ci"];
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 2) {
    const name = argv[index]!;
    if (!options.includes(name))
      throw new LoupeError("usage_invalid", `unknown option ${JSON.stringify(name)}`);
    const value = argv[index + 1];
    if (value === undefined) throw new LoupeError("usage_invalid", `${name} needs a value`);
    values.set(name, value.trim());
  }
  const failOn = values.get("--fail-on") ?? "";
  if (failOn !== "" && !(SEVERITIES as readonly string[]).includes(failOn))
    throw new LoupeError("usage_invalid", `--fail-on must be one of ${SEVERITIES.join(", ")}, or empty`);
  const incomplete = values.get("--fail-on-incomplete") ?? "";
  if (!["", "true", "false"].includes(incomplete))
    throw new LoupeError("usage_invalid", "--fail-on-incomplete must be true or false");
  return { failOn: failOn === "" ? null : (failOn as Severity), failOnIncomplete: incomplete === "true" };
}
