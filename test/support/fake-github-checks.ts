// POST /repos/:o/:r/check-runs and PATCH …/check-runs/:id validated against GitHub's documented
// limits (summary/text ≤ 65 535 characters, ≤ 3 actions with label ≤ 20, description ≤ 40,
// identifier ≤ 20, ≤ 50 annotations per request, a conclusion whenever the run is completed,
// only Actions may set waiting/requested/pending). Each accepted write is kept as a state so a
// test can read the run's whole history.

export type CheckStatus = "queued" | "in_progress" | "completed";

export interface CheckRunState {
  readonly status: CheckStatus;
  readonly conclusion: string | null;
  readonly output: { readonly title?: string; readonly summary?: string; readonly text?: string } | null;
  readonly actions: readonly { label: string; description: string; identifier: string }[];
}

export interface CheckRun {
  readonly id: number;
  readonly owner: string;
  readonly repo: string;
  readonly name: string;
  readonly headSha: string;
  readonly externalId: string | null;
  /** Every accepted create/update, oldest first; the last one is the current state. */
  readonly history: CheckRunState[];
}

const CONCLUSIONS = new Set([
  "action_required",
  "cancelled",
  "failure",
  "neutral",
  "success",
  "skipped",
  "timed_out",
]);
const MAX_TEXT = 65535;

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Validates a create (`previous` undefined) or update body; returns the new state or an error. */
export function applyCheckRunWrite(
  body: Fields,
  previous: CheckRunState | undefined,
): { ok: true; state: CheckRunState } | { ok: false; message: string } {
  const fail = (message: string) => ({ ok: false as const, message: `Invalid request.\n\n${message}` });
  if (previous === undefined) {
    if (typeof body.name !== "string" || body.name === "") return fail('"name" wasn\'t supplied.');
    if (typeof body.head_sha !== "string") return fail('"head_sha" wasn\'t supplied.');
  }
  const status =
    body.status ?? (body.conclusion !== undefined ? "completed" : (previous?.status ?? "queued"));
  if (status === "waiting" || status === "requested" || status === "pending") {
    return fail(`Only GitHub Actions can set a status of "${String(status)}".`);
  }
  if (status !== "queued" && status !== "in_progress" && status !== "completed") {
    return fail(
      `"status" ${JSON.stringify(status)} is not a member of ["queued", "in_progress", "completed"].`,
    );
  }
  const conclusion = body.conclusion ?? (status === "completed" ? previous?.conclusion : null) ?? null;
  if (conclusion !== null && (typeof conclusion !== "string" || !CONCLUSIONS.has(conclusion))) {
    return fail(`"conclusion" ${JSON.stringify(conclusion)} is not a member of the allowed values.`);
  }
  if (status === "completed" && conclusion === null) return fail('"conclusion" wasn\'t supplied.');
  if (status !== "completed" && body.conclusion !== undefined) {
    return fail('"conclusion" can only be supplied with a status of "completed".');
  }

  let output = previous?.output ?? null;
  if (body.output !== undefined) {
    if (!isObject(body.output)) return fail('"output" is not an object.');
    const { title, summary, text, annotations } = body.output;
    if (typeof title !== "string") return fail('"title" wasn\'t supplied.');
    if (typeof summary !== "string") return fail('"summary" wasn\'t supplied.');
    if (summary.length > MAX_TEXT) return fail(`"summary" is too long (maximum is ${MAX_TEXT} characters).`);
    if (text !== undefined && (typeof text !== "string" || text.length > MAX_TEXT)) {
      return fail(`"text" is too long (maximum is ${MAX_TEXT} characters).`);
    }
    if (annotations !== undefined && (!Array.isArray(annotations) || annotations.length > 50)) {
      return fail('"annotations" may have at most 50 items per request.');
    }
    output = { title, summary, ...(typeof text === "string" ? { text } : {}) };
  }

  let actions = previous?.actions ?? [];
  if (body.actions !== undefined) {
    if (!Array.isArray(body.actions) || body.actions.length > 3)
      return fail("A maximum of three actions are accepted.");
    const checked: { label: string; description: string; identifier: string }[] = [];
    for (const action of body.actions) {
      if (!isObject(action)) return fail('"actions" items must be objects.');
      const { label, description, identifier } = action;
      if (typeof label !== "string" || label.length > 20)
        return fail('"label" must be at most 20 characters.');
      if (typeof description !== "string" || description.length > 40) {
        return fail('"description" must be at most 40 characters.');
      }
      if (typeof identifier !== "string" || identifier.length > 20) {
        return fail('"identifier" must be at most 20 characters.');
      }
      checked.push({ label, description, identifier });
    }
    actions = checked;
  }
  return { ok: true, state: { status, conclusion, output, actions } };
}

/** The check run as GitHub returns it. */
export function checkRunJson(run: CheckRun, apiBase: string): Record<string, unknown> {
  const state = run.history[run.history.length - 1]!;
  return {
    id: run.id,
    head_sha: run.headSha,
    node_id: `CR_${run.id}`,
    external_id: run.externalId,
    url: `${apiBase}/repos/${run.owner}/${run.repo}/check-runs/${run.id}`,
    html_url: `${apiBase.replace(/\/api\/v3$/, "")}/${run.owner}/${run.repo}/runs/${run.id}`,
    details_url: null,
    status: state.status,
    conclusion: state.conclusion,
    started_at: new Date().toISOString(),
    completed_at: state.status === "completed" ? new Date().toISOString() : null,
    output: {
      title: state.output?.title ?? null,
      summary: state.output?.summary ?? null,
      text: state.output?.text ?? null,
      annotations_count: 0,
    },
    name: run.name,
    app: { id: 1, slug: "loupe", name: "Loupe" },
    pull_requests: [],
  };
}
