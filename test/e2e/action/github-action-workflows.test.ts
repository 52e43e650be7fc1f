// Every workflow of docs/github-action.md run as GitHub's runner would run it: its job's `if:`
// evaluated by GitHub's expression engine for the events it is written for (a same-repository
// pull request, a fork's, a writer's comment, and comments it must not spend a runner on), then,
// where the job runs, the committed Action started with the step's `with:` inputs (its `${{ … }}`
// values interpolated, action.yml's defaults for the rest, as the runner passes them) against the
// fake GitHub and a scripted model. Only `openai-base-url` is pointed at the scripted model.

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { parse } from "yaml";
import { runActionEntry } from "../../support/action-runner.ts";
import { stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, issueCommentEvent, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import type { FixtureRepo } from "../../support/git-fixture.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { createValuesRepo, V10_TITLE, v10Review } from "../../support/values-repo.ts";
import type { ExamplePayload } from "../../support/webhook-examples.ts";
import {
  documentedWorkflows,
  githubContext,
  interpolate,
  runsIf,
  type Workflow,
  type WorkflowContexts,
} from "../../support/workflow-expressions.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const API_KEY = `test-key-workflows-${process.pid}`;

let github: FakeGitHub;
let fixture: FixtureRepo;
const providers: ScriptedProvider[] = [];
let nextNumber = 40;
const workflows = documentedWorkflows(fs.readFileSync(path.join(ROOT, "docs/github-action.md"), "utf8"));
const target = () => fakeGitHubTarget(github, "values");

beforeAll(async () => {
  fixture = createValuesRepo();
  github = await startFakeGitHub();
  github.addRepository({
    owner: "octo",
    repo: "values",
    source: fixture,
    collaborators: { maintainer: "maintain" },
  });
}, 60_000);

afterAll(async () => {
  for (const provider of providers) await provider.stop();
  await github?.stop();
  fixture?.dispose();
});

/** The model reads the file, reports one finding, and verification confirms it. */
async function scriptedModel(): Promise<ScriptedProvider> {
  const provider = await startScriptedProvider([
    {
      body: toolCallsTurn([{ id: "c1", name: "read_repository_file", arguments: { path: "src/values.ts" } }]),
    },
    {
      body: stopTurn(v10Review()),
    },
    {
      when: V10_TITLE,
      turn: { body: stopTurn({ verdict: "confirmed", reason: "Line 10 reads v10 = 100.", quote: null }) },
    },
  ]);
  providers.push(provider);
  return provider;
}

type Case = "same-repository pull request" | "fork's pull request" | "writer's comment";
type Delivery = {
  readonly eventName: string;
  readonly payload: Record<string, unknown>;
  readonly number: number;
};

/** The event GitHub delivers for the workflow's trigger; a fork's head lives in another repository. */
function delivery(workflow: Workflow, kind: Case, change?: (payload: ExamplePayload) => void): Delivery {
  const eventName = Object.keys(workflow.on)[0]!;
  const pr = github.addPullRequest({
    owner: "octo",
    repo: "values",
    number: nextNumber++,
    headRef: "change-v10",
  });
  const payload: ExamplePayload =
    eventName === "issue_comment"
      ? issueCommentEvent(target(), pr, 7000 + pr.number, "@loupe review")
      : pullRequestEvent("opened", target(), pr);
  // A workflow's event carries no App installation.
  delete payload.installation;
  if (eventName === "issue_comment") payload.comment.user = { ...payload.comment.user, login: "maintainer" };
  if (kind === "fork's pull request") {
    const head = payload.pull_request.head;
    head.repo = { ...head.repo, full_name: "stranger/values", fork: true, owner: { login: "stranger" } };
    head.label = `stranger:${head.ref}`;
  }
  change?.(payload);
  return { eventName, payload, number: pr.number };
}

function contexts(event: Delivery, token: string): WorkflowContexts {
  return {
    github: { ...githubContext(event.eventName, event.payload, "octo/values"), token },
    secrets: { OPENAI_API_KEY: API_KEY },
  };
}

/** What the runner passes the Loupe step: action.yml's defaults, then the step's own `with:`. */
function stepInputs(workflow: Workflow, context: WorkflowContexts): Record<string, string> {
  const action = parse(fs.readFileSync(path.join(ROOT, "action.yml"), "utf8")) as {
    inputs: Record<string, { default?: string }>;
  };
  const step = loupeStep(workflow);
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs))
    if (spec.default !== undefined) inputs[name] = interpolate(spec.default, context);
  for (const [name, value] of Object.entries(step.with ?? {})) inputs[name] = interpolate(value, context);
  return inputs;
}

const loupeStep = (workflow: Workflow) => {
  const steps = Object.values(workflow.jobs)[0]!.steps;
  return steps.find((s) => s.uses?.includes("/loupe@"))!;
};
const jobRuns = (workflow: Workflow, context: WorkflowContexts) =>
  runsIf(Object.values(workflow.jobs)[0]!.if, context);

describe("the workflows of docs/github-action.md, as the runner runs them", () => {
  it("are the four documented workflows, each with the Loupe step", () => {
    expect(workflows.map((w) => Object.keys(w.on)[0])).toEqual([
      "pull_request",
      "pull_request_target",
      "issue_comment",
      "pull_request",
    ]);
    for (const workflow of workflows) expect(loupeStep(workflow).with?.["openai-api-key"]).toBeDefined();
  });

  it.each<[number, Case, boolean]>([
    [0, "same-repository pull request", true],
    [0, "fork's pull request", false],
    [1, "same-repository pull request", true],
    [1, "fork's pull request", true],
    [2, "writer's comment", true],
    [3, "same-repository pull request", true],
    [3, "fork's pull request", false],
  ])(
    "workflow %i on a %s: the job runs: %s; where it runs, the Action reviews",
    async (index, kind, runs) => {
      const workflow = workflows[index]!;
      const event = delivery(workflow, kind);
      const token = github.workflowToken("octo", "values");
      const context = contexts(event, token);
      expect(jobRuns(workflow, context)).toBe(runs);
      if (!runs) return;
      const provider = await scriptedModel();
      const inputs: Record<string, string> = {
        ...stepInputs(workflow, context),
        "openai-base-url": provider.baseURL,
      };
      expect(inputs["openai-api-key"]).toBe(API_KEY);
      expect(inputs["github-token"]).toBe(token);
      const run = await runActionEntry({
        eventName: event.eventName,
        payload: event.payload,
        token,
        githubUrl: github.url,
        repository: "octo/values",
        inputs,
      });
      for (const text of [run.stdout, run.stderr, run.summary]) expect(text).not.toContain(API_KEY);
      // `fail-on: high` (the first workflow) fails the job only on a high finding; this one is medium.
      expect({ code: run.code, reason: run.outputs["termination-reason"] }).toEqual({
        code: 0,
        reason: "final_review",
      });
      const reviews = github.reviews.filter((r) => r.repo === "values" && r.pullNumber === event.number);
      expect(reviews).toHaveLength(1);
      expect(run.summary).toContain(V10_TITLE);
      // The steps after Loupe's (the SARIF upload) run on its outputs, as written.
      const after = Object.values(workflow.jobs)[0]!.steps.filter((s) => s !== loupeStep(workflow));
      const withOutputs = { ...context, steps: { loupe: { outputs: run.outputs } } };
      for (const step of after) {
        expect(runsIf(step.if, withOutputs)).toBe(true);
        for (const value of Object.values(step.with ?? {}))
          expect(interpolate(value, withOutputs)).not.toBe("");
      }
      if (after.length > 0) expect(run.files["sarif-file"]).toContain('"version": "2.1.0"');
    },
    60_000,
  );

  it.each<[string, (payload: ExamplePayload) => void]>([
    ["a comment on an issue, not a pull request", (p) => delete p.issue.pull_request],
    ["a comment that does not mention Loupe", (p) => (p.comment.body = "Looks good to me.")],
  ])("the comment workflow spends no runner on %s", (_, change) => {
    const workflow = workflows[2]!;
    const event = delivery(workflow, "writer's comment", change);
    expect(jobRuns(workflow, contexts(event, github.workflowToken("octo", "values")))).toBe(false);
  });
});
