// Loupe's GitLab CI/CD component (templates/review.yml) run as GitLab's runner runs it: the
// template parsed, its inputs interpolated as GitLab does at `include:` time ($[[ inputs.x ]],
// defaults for those not given), the job's rules read, and its `script` lines run by a shell in
// the job's directory (empty: GIT_STRATEGY none) with GitLab's predefined variables of a merge
// request pipeline set — `loupe` on PATH standing for the image's /app/bin. Against the fake
// GitLab (REST and git over a real `git http-backend`) and a scripted model: a same-project
// merge request, a fork's (its pipeline run in the parent project), and a pipeline without
// GITLAB_TOKEN (a fork's own pipeline, which gets none of the project's variables).

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { parseAllDocuments } from "yaml";
import { stopTurn } from "../../support/chat-turns.ts";
import { type FakeGitLab, startFakeGitLab } from "../../support/fake-gitlab.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const API_KEY = `test-key-gitlab-ci-${process.pid}`;

interface ComponentJob {
  readonly script: readonly string[];
  readonly variables: Readonly<Record<string, string>>;
  readonly rules: readonly { readonly if?: string }[];
  readonly image: { readonly name: string; readonly entrypoint?: readonly string[] };
}

/** The component's job as GitLab makes it from `include: component: … inputs: {…}`. */
function includeComponent(inputs: Readonly<Record<string, string | boolean>>): ComponentJob {
  const text = fs.readFileSync(path.join(ROOT, "templates/review.yml"), "utf8");
  const [header, body] = parseAllDocuments(text);
  const spec = (header!.toJS() as { spec: { inputs: Record<string, { default?: unknown }> } }).spec.inputs;
  for (const name of Object.keys(inputs))
    if (!(name in spec)) throw new Error(`the component has no input ${name}`);
  const missing = Object.keys(spec).filter((name) => !(name in inputs) && !("default" in spec[name]!));
  if (missing.length > 0) throw new Error(`required inputs not given: ${missing.join(", ")}`);
  const value = (name: string) => String(name in inputs ? inputs[name] : spec[name]!.default);
  const source = text.slice(text.indexOf("\n---\n") + 5);
  const interpolated = source.replace(/\$\[\[\s*inputs\.([\w-]+)\s*\]\]/g, (_, name: string) => {
    if (!(name in spec)) throw new Error(`unknown input ${name}`);
    return value(name);
  });
  expect(body).toBeDefined();
  const jobs = parseAllDocuments(interpolated)[0]!.toJS() as Record<string, ComponentJob>;
  return jobs["loupe-review"]!;
}

/** GitLab's predefined variables of a merge request pipeline in `project` for `target`!iid. */
function pipelineVariables(
  gitlab: FakeGitLab,
  input: { project: string; target: string; iid: number; head: string },
) {
  return {
    CI: "true",
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "merge_request_event",
    CI_SERVER_URL: gitlab.url,
    CI_API_V4_URL: `${gitlab.url}/api/v4`,
    CI_PROJECT_PATH: input.project,
    CI_MERGE_REQUEST_PROJECT_PATH: input.target,
    CI_MERGE_REQUEST_IID: String(input.iid),
    CI_COMMIT_SHA: input.head,
    CI_JOB_ID: String(1000 + input.iid),
    CI_JOB_TOKEN: "glcbt-64_job-token-cannot-post-notes",
  };
}

interface JobRun {
  readonly code: number;
  readonly output: string;
}

/** The runner: the rules decide, then each script line in a shell, stopping at the first failure. */
async function runJob(job: ComponentJob, env: Record<string, string>): Promise<JobRun> {
  const applies = job.rules.some((rule) => rule.if === '$CI_PIPELINE_SOURCE == "merge_request_event"');
  if (!applies || env.CI_PIPELINE_SOURCE !== "merge_request_event") throw new Error("the job would not run");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-ci-job-"));
  const full = {
    PATH: `${path.join(ROOT, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: dir,
    ...job.variables,
    ...env,
  };
  let output = "";
  try {
    for (const line of job.script) {
      const code = await new Promise<number>((resolve) => {
        const child = execFile("sh", ["-c", line], { cwd: dir, env: full }, (error) => {
          resolve(error === null ? 0 : typeof error.code === "number" ? error.code : 1);
        });
        child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
      });
      if (code !== 0) return { code, output };
    }
    return { code: 0, output };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const FINDING = {
  severity: "medium",
  title: "`a` changed from 1 to 2 without a reason",
  explanation: "The constant a is now 2; nothing in the change says why.",
  path: "src/a.ts",
  line: 1,
  evidence: "export const a = 2;",
  recommendation: "Say why a is 2, or name the value.",
};

let gitlab: FakeGitLab;
let provider: ScriptedProvider;
let fixture: FixtureRepo;

beforeAll(async () => {
  fixture = createOneChangeRepo();
  gitlab = await startFakeGitLab();
  gitlab.addProject({ path: "team/app", source: fixture, members: { dev: 30 } });
  gitlab.addProject({ path: "contributor/app", source: fixture });
  provider = await startScriptedProvider(
    Array.from({ length: 2 }, () => ({
      body: stopTurn({ summary: "a changed.", findings: [FINDING], notes: [] }),
    })),
  );
}, 60_000);

afterAll(async () => {
  await provider?.stop();
  await gitlab?.stop();
  fixture?.dispose();
});

const secrets = () => ({
  GITLAB_TOKEN: gitlab.token,
  OPENAI_BASE_URL: provider.baseURL,
  OPENAI_API_KEY: API_KEY,
  REVIEW_MODEL: "deepseek-v4-flash",
  REVIEW_VERIFY: "off",
});

describe("Loupe's GitLab CI/CD component", () => {
  it("reviews a merge request of the project and publishes the review, with no commit status", async () => {
    const head = gitlab.addMergeRequest({ project: "team/app", iid: 1, sourceBranch: "change" }).diffRefs
      .head_sha;
    const job = includeComponent({ image: "registry.example.com/loupe:1.0.0", "fail-on": "high" });
    expect(job.image).toEqual({ name: "registry.example.com/loupe:1.0.0", entrypoint: [""] });
    expect(job.variables.GIT_STRATEGY).toBe("none");
    const run = await runJob(job, {
      ...pipelineVariables(gitlab, { project: "team/app", target: "team/app", iid: 1, head }),
      ...secrets(),
    });
    expect(run).toMatchObject({ code: 0 });
    const published = gitlab.publishes.at(-1)!;
    expect(published.map((d) => d.iid)).toEqual([1, 1]);
    expect(published[1]?.note).toContain("changed from 1 to 2");
    expect(published[1]?.position).toMatchObject({ new_path: "src/a.ts", new_line: 1 });
    expect(
      gitlab.notes.filter((n) => n.iid === 1 && n.body.startsWith("<!-- loupe:summary -->")),
    ).toHaveLength(1);
    expect(gitlab.statuses).toEqual([]);
    expect(run.output).not.toContain(gitlab.token);
    expect(run.output).not.toContain(API_KEY);
  });

  it("reviews a fork's merge request in the parent's pipeline, and fails the job when a finding reaches fail-on", async () => {
    const head = gitlab.addMergeRequest({
      project: "team/app",
      iid: 2,
      sourceBranch: "change",
      sourceProject: "contributor/app",
    }).diffRefs.head_sha;
    const job = includeComponent({ image: "registry.example.com/loupe:1.0.0", "fail-on": "medium" });
    const run = await runJob(job, {
      ...pipelineVariables(gitlab, { project: "team/app", target: "team/app", iid: 2, head }),
      ...secrets(),
    });
    expect(run.code).toBe(1);
    expect(run.output).toContain("A finding reached the `fail-on` severity (medium).");
    expect(gitlab.publishes.at(-1)?.map((d) => d.iid)).toEqual([2, 2]);
    expect(gitlab.statuses).toEqual([]);
  });

  it("says in one line that GITLAB_TOKEN is needed, and passes, when the pipeline has none (a fork's own)", async () => {
    const before = gitlab.requests.length;
    const job = includeComponent({ image: "registry.example.com/loupe:1.0.0" });
    const { GITLAB_TOKEN: _, ...noToken } = secrets();
    const run = await runJob(job, {
      ...pipelineVariables(gitlab, {
        project: "contributor/app",
        target: "team/app",
        iid: 2,
        head: "0".repeat(40),
      }),
      ...noToken,
    });
    expect(run.code).toBe(0);
    const lines = run.output.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^loupe: GITLAB_TOKEN is not set, so no review: GitLab's job token cannot post/);
    expect(gitlab.requests.length).toBe(before);
  });

  it("declares the inputs fail-on and fail-on-incomplete, and runs only on merge request pipelines", () => {
    const spec = parseAllDocuments(
      fs.readFileSync(path.join(ROOT, "templates/review.yml"), "utf8"),
    )[0]!.toJS().spec.inputs as Record<string, { default?: unknown; type?: string }>;
    expect(spec["fail-on"]?.default).toBe("");
    expect(spec["fail-on-incomplete"]).toMatchObject({ type: "boolean", default: false });
    expect(() => includeComponent({})).toThrow("required inputs not given: image");
    expect(includeComponent({ image: "x" }).rules).toEqual([
      { if: '$CI_PIPELINE_SOURCE == "merge_request_event"' },
    ]);
  });
});
