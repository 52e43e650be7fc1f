// A documented workflow read as GitHub's runner reads it: its `if:` conditions and `${{ … }}`
// values evaluated by GitHub's own expression engine (@actions/expressions, the one GitHub's
// language services use), over the contexts a run has (`github` with the event's payload,
// `secrets`, `steps`, `vars`). A condition without a status function is `success() && (…)`, as
// GitHub defines it; a job's status functions answer for a job where nothing has failed yet.

import { data, Evaluator, Lexer, Parser } from "@actions/expressions";
import { truthy } from "@actions/expressions/result";
import { parse } from "yaml";

export interface WorkflowContexts {
  readonly github: Record<string, unknown>;
  readonly secrets?: Record<string, string>;
  readonly vars?: Record<string, string>;
  readonly steps?: Record<string, { readonly outputs: Record<string, string> }>;
}

export interface WorkflowStep {
  readonly id?: string;
  readonly uses?: string;
  readonly if?: string;
  readonly with?: Record<string, string | number | boolean>;
}

export interface Workflow {
  readonly name: string;
  readonly on: Record<string, unknown>;
  readonly jobs: Record<string, { readonly if?: string; readonly steps: readonly WorkflowStep[] }>;
}

const STATUS_FUNCTIONS = ["always", "success", "failure", "cancelled"] as const;
const STATUS_CALL = /\b(?:always|success|failure|cancelled)\s*\(/;

/** The `github` context of a run for this event: the payload under `event`, as the runner sets it. */
export function githubContext(eventName: string, payload: Record<string, unknown>, repository: string) {
  return { event_name: eventName, event: payload, repository };
}

export function evaluate(expression: string, contexts: WorkflowContexts): data.ExpressionData {
  const { tokens } = new Lexer(expression).lex();
  const all = { secrets: {}, vars: {}, steps: {}, ...contexts };
  const info = STATUS_FUNCTIONS.map((name) => ({ name, minArgs: 0, maxArgs: 0 }));
  const ast = new Parser(tokens, Object.keys(all), info).parse();
  const context = JSON.parse(JSON.stringify(all), data.reviver) as data.Dictionary;
  // Nothing has failed or been cancelled before the condition is read.
  const status: Record<(typeof STATUS_FUNCTIONS)[number], boolean> = {
    always: true,
    success: true,
    failure: false,
    cancelled: false,
  };
  const functions = new Map(
    info.map((f) => [f.name, { ...f, call: () => new data.BooleanData(status[f.name]) }]),
  );
  return new Evaluator(ast, context, functions).evaluate();
}

/** Whether a job or step with this `if:` runs (no `if:` is `success()`). */
export function runsIf(condition: string | undefined, contexts: WorkflowContexts): boolean {
  const bare = (condition ?? "success()").trim().replace(/^\$\{\{([\s\S]*)\}\}$/, "$1");
  const expression = STATUS_CALL.test(bare) ? bare : `success() && (${bare})`;
  return truthy(evaluate(expression, contexts));
}

/** A `with:` value with each `${{ … }}` replaced by its value as a string, as the runner passes it. */
export function interpolate(value: string | number | boolean, contexts: WorkflowContexts): string {
  return String(value).replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expression: string) =>
    evaluate(expression, contexts).coerceString(),
  );
}

/** Every fenced YAML block of a Markdown page that is a whole workflow (it has `on` and `jobs`). */
export function documentedWorkflows(markdown: string): Workflow[] {
  const workflows: Workflow[] = [];
  for (const match of markdown.matchAll(/```yaml\n([\s\S]*?)```/g)) {
    const parsed = parse(match[1]!) as Partial<Workflow> | null;
    if (parsed !== null && typeof parsed === "object" && parsed.on && parsed.jobs) {
      workflows.push(parsed as Workflow);
    }
  }
  return workflows;
}
