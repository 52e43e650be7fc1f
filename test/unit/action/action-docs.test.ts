// docs/github-action.md against action.yml: the inputs and outputs tables name exactly what the
// action declares (with its required inputs and its non-empty defaults), and every workflow in the
// page is one a runner would run safely: the action pinned to a commit, only declared inputs and
// every required one, `concurrency:` per pull request, and the fork-safe `if:` on `pull_request`.

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";
import { parse } from "yaml";
import { COMMENT_WORKFLOW_NOTE } from "../../../src/action/action-report.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const doc = fs.readFileSync(path.join(ROOT, "docs", "github-action.md"), "utf8");

interface Declared {
  readonly inputs: Record<string, { readonly required?: boolean; readonly default?: string }>;
  readonly outputs: Record<string, unknown>;
}
const action = parse(fs.readFileSync(path.join(ROOT, "action.yml"), "utf8")) as Declared;

/** The rows of the table under `heading`: each row's cells, header and rule left out. */
function tableUnder(heading: string): string[][] {
  const section = doc.split(`\n## ${heading}\n`)[1]?.split("\n## ")[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

/** `a`, `b` and `c` in a cell: each name in backticks. */
const namesIn = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

interface Step {
  readonly uses?: string;
  readonly with?: Record<string, unknown>;
}
interface Job {
  readonly if?: string;
  readonly concurrency?: { readonly group?: string };
  readonly steps?: readonly Step[];
}
interface Workflow {
  readonly on?: Record<string, unknown>;
  readonly concurrency?: { readonly group?: string; readonly "cancel-in-progress"?: boolean };
  readonly jobs?: Record<string, Job>;
}

const yamlBlocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]!) as unknown);
const workflows = yamlBlocks.filter((b): b is Workflow => typeof b === "object" && b !== null && "jobs" in b);
const loupeSteps = (steps: readonly Step[]) => steps.filter((s) => /\/loupe@/.test(s.uses ?? ""));

describe("docs/github-action.md", () => {
  it("lists exactly action.yml's inputs, the required ones as required, with their defaults", () => {
    const rows = tableUnder("Inputs");
    const documented = rows.flatMap(([names]) => namesIn(names!));
    expect([...documented].sort()).toEqual(Object.keys(action.inputs).sort());
    for (const [names, defaults] of rows) {
      for (const name of namesIn(names!)) {
        const input = action.inputs[name]!;
        if (input.required === true) expect([name, defaults]).toEqual([name, "(required)"]);
        else if (input.default !== undefined && input.default !== "")
          expect([name, defaults]).toEqual([name, expect.stringContaining(`\`${input.default}\``)]);
      }
    }
  });

  it("lists exactly action.yml's outputs", () => {
    const documented = tableUnder("Outputs and the step summary").flatMap(([names]) => namesIn(names!));
    expect([...documented].sort()).toEqual(Object.keys(action.outputs).sort());
  });

  it("shows workflows a runner would run safely", () => {
    expect(workflows.length).toBeGreaterThanOrEqual(4);
    for (const workflow of workflows) {
      const events = Object.keys(workflow.on ?? {});
      for (const job of Object.values(workflow.jobs ?? {})) {
        const steps = loupeSteps(job.steps ?? []);
        if (steps.length === 0) continue;
        // One review at a time per pull request.
        const group = (job.concurrency ?? workflow.concurrency)?.group ?? "";
        expect([events, group]).toEqual([
          events,
          expect.stringMatching(/github\.event\.(pull_request|issue)\.number/),
        ]);
        // A fork's pull_request has no secrets and a read-only token: the job must not run for it.
        if (events.includes("pull_request"))
          expect(job.if).toBe("github.event.pull_request.head.repo.full_name == github.repository");
      }
    }
  });

  it("pins the action to a commit and passes only declared inputs, every required one", () => {
    const steps = yamlBlocks.flatMap((block): Step[] => {
      if (Array.isArray(block)) return loupeSteps(block as Step[]);
      const jobs = Object.values((block as Workflow).jobs ?? {});
      return jobs.flatMap((job) => loupeSteps(job.steps ?? []));
    });
    expect(steps.length).toBeGreaterThanOrEqual(5);
    const required = Object.entries(action.inputs)
      .filter(([, input]) => input.required === true)
      .map(([name]) => name);
    for (const step of steps) {
      expect(step.uses).toBe("your-org/loupe@<full-commit-sha>");
      const given = Object.keys(step.with ?? {});
      expect(given.filter((name) => !(name in action.inputs))).toEqual([]);
      expect(required.filter((name) => !given.includes(name))).toEqual([]);
    }
  });

  it("pins every other action its workflows use by a full commit SHA, as it pins Loupe", () => {
    const uses = [...doc.matchAll(/^\s*-?\s*uses:\s*(\S+)/gm)].map((m) => m[1]!);
    const others = uses.filter((ref) => !ref.startsWith("your-org/loupe@"));
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((ref) => !/@[0-9a-f]{40}$/.test(ref))).toEqual([]);
  });

  it("says, as the author_not_allowed skip does, that the command needs the comment-trigger workflow", () => {
    // The skip's note names the workflow by its heading in this page: the heading must exist, and
    // the page's own word on the skip must send the reader to it and to `issue_comment`.
    const heading = /"([^"]+)"/.exec(COMMENT_WORKFLOW_NOTE)?.[1] ?? "";
    expect(doc).toMatch(new RegExp(`\\n### \\d+\\. ${heading}\\n`));
    const [skipRow] = tableUnder("Inputs").filter(([names]) =>
      namesIn(names!).includes("auto-review-authors"),
    );
    expect(skipRow?.[2]).toEqual(expect.stringContaining("`author_not_allowed`"));
    expect(skipRow?.[2]).toEqual(expect.stringContaining("`issue_comment`"));
    expect(skipRow?.[2]).toEqual(expect.stringContaining(heading));
  });
});
