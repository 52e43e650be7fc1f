// A scripted model that answers the way the models people use do, driven by each request rather
// than by a fixed queue: asked for a review, it first calls inspect_git_diff, sometimes reads a
// flagged file, then answers with the findings the test says it "knows" for the files it was
// shown. Its answers are untidy the way real ones are: evidence in prose, with identifiers in
// backticks, as `Line N: ...` or as numbered copied lines; the JSON sometimes inside one ```json
// fence; titles reworded between runs; now and then a path spelled `./src/x.ts`. As verifier it
// reads the file, then answers confirmed or plausible with a prose reason. The phrasing follows
// real review comments (the candidate comments of Martian's code-review benchmark), not fixtures.
//
// Every choice is drawn from a seeded generator keyed by the request's subject, so one seed
// replays exactly whatever order concurrent requests arrive in, and another seed rewords.
//
//   const provider = await startRealisticModel({ findings: [{ path, line, severity, titles, code }] });

import type { Severity } from "../../src/domain/finding.ts";
import { isRecord } from "../../src/llm/envelope.ts";
import { stopTurn, toolCallsTurn } from "./chat-turns.ts";
import {
  type RecordedRequest,
  type ScriptedProvider,
  type ScriptedTurn,
  startScriptedProvider,
} from "./scripted-provider.ts";
import { seededRandom } from "./seeded-random.ts";

/** A problem the model finds whenever it is shown `path`. */
export interface KnownFinding {
  readonly path: string;
  readonly line: number;
  readonly end_line?: number;
  readonly severity: Severity;
  /** Ways the model words the title; one is picked per run. */
  readonly titles: readonly string[];
  /** The flagged line(s) at the head commit, from `line`, exactly as in the file. */
  readonly code: string;
  /** What goes wrong, in one clause ("invalid input is saved"); a generic one by default. */
  readonly impact?: string;
  readonly recommendation?: string;
}

export interface RealisticModelOptions {
  readonly findings: readonly KnownFinding[];
  /** Another seed rewords titles and evidence and changes formats (default 1). */
  readonly seed?: number;
  /** The verifier's answer; by default confirmed, now and then plausible. */
  readonly verdict?: "confirmed" | "plausible";
  /** Hold the first answer this long (a review still running when its webhook is answered). */
  readonly firstAnswerDelayMs?: number;
  /** Hold every answer this long, as a slow model does (after the first's own delay, if set). */
  readonly answerDelayMs?: number;
}

/** The usage the realistic model reports: chat-turns' toolCallsTurn and stopTurn. */
export const TOOL_TURN_USAGE = { prompt: 100, completion: 10 } as const;
export const STOP_TURN_USAGE = { prompt: 200, completion: 20 } as const;

/** The tool calls the model made before this request, by name, read from the request's history. */
export function toolCallsBefore(request: RecordedRequest): string[] {
  const body = request.body;
  if (!isRecord(body) || !Array.isArray(body.messages)) return [];
  return body.messages.flatMap((m) =>
    isRecord(m) && m.role === "assistant" && Array.isArray(m.tool_calls)
      ? m.tool_calls.map((call) =>
          isRecord(call) && isRecord(call.function) ? String(call.function.name) : "",
        )
      : [],
  );
}

export const REVIEWER_SYSTEM = "You are Loupe, a careful code reviewer of one pull request.";
export const VERIFIER_SYSTEM = "You are Loupe's verifier";

/** Which of Loupe's requests this is, by its system message. */
export function requestKind(request: RecordedRequest): "review" | "verify" | "other" {
  const body = request.body;
  const first = isRecord(body) && Array.isArray(body.messages) ? body.messages[0] : undefined;
  const system =
    isRecord(first) && first.role === "system" && typeof first.content === "string" ? first.content : "";
  if (system.startsWith(REVIEWER_SYSTEM)) return "review";
  return system.startsWith(VERIFIER_SYSTEM) ? "verify" : "other";
}

export async function startRealisticModel(
  options: RealisticModelOptions,
  script: readonly ScriptedTurn[] = [],
): Promise<ScriptedProvider> {
  return startScriptedProvider(script, { responder: realisticResponder(options) });
}

/** The responder of startScriptedProvider: undefined for a request it does not model (a 418). */
export function realisticResponder(
  options: RealisticModelOptions,
): (request: RecordedRequest) => ScriptedTurn | undefined {
  const seed = options.seed ?? 1;
  let answered = 0;
  return (request) => {
    const turn = answer(request);
    answered += 1;
    const delay = (answered === 1 ? (options.firstAnswerDelayMs ?? 0) : 0) + (options.answerDelayMs ?? 0);
    return turn !== undefined && delay > 0 ? { fault: "delay", ms: delay, next: turn } : turn;
  };
  function answer(request: RecordedRequest): ScriptedTurn | undefined {
    const body = request.body;
    if (!isRecord(body) || !Array.isArray(body.messages)) return undefined;
    const messages = body.messages.filter(isRecord).map((m) => ({
      role: String(m.role),
      content: typeof m.content === "string" ? m.content : "",
    }));
    const system = messages[0]?.role === "system" ? messages[0].content : "";
    const final = body.tool_choice === "none" || !Array.isArray(body.tools);
    const toolRounds = body.messages.filter((m) => isRecord(m) && m.role === "tool").length;
    const shown = messages
      .slice(1)
      .map((m) => m.content)
      .join("\n");
    if (system.startsWith(VERIFIER_SYSTEM)) {
      const known = findingUnderQuestion(options.findings, shown);
      if (known === undefined) return undefined;
      const random = seededRandom(seed ^ hash(`verify ${known.path}:${known.line}`));
      if (!final && toolRounds === 0) return { body: readCall(known, toolRounds) };
      return { body: stopTurn(verdictText(known, random, options.verdict)) };
    }
    if (!system.startsWith(REVIEWER_SYSTEM)) return undefined;
    const found = options.findings.filter((known) => shown.includes(known.path));
    const random = seededRandom(seed ^ hash(`review ${found.map((f) => f.path).join(" ")}`));
    if (!final && toolRounds === 0) {
      const args = random() < 0.5 ? {} : { paths: [], max_bytes: 65536 };
      return { body: toolCallsTurn([{ id: "call_diff_0", name: "inspect_git_diff", arguments: args }]) };
    }
    const reads = found[0];
    if (!final && toolRounds === 1 && reads !== undefined && random() < 0.6) {
      return { body: readCall(reads, toolRounds) };
    }
    return { body: stopTurn(reviewText(found, seededRandom(seed ^ hash(`answer ${found.length}`)))) };
  }
}

/** The known finding the verifier is asked about: its path, and a line within its range. */
function findingUnderQuestion(findings: readonly KnownFinding[], shown: string): KnownFinding | undefined {
  const anchored = /is anchored on ("(?:[^"\\]|\\.)*"), (?:line (\d+)|lines (\d+)-(\d+))/.exec(shown);
  if (anchored === null) return undefined;
  const path = JSON.parse(anchored[1]!) as string;
  const line = Number(anchored[2] ?? anchored[4]);
  return findings.find(
    (known) => known.path === path && line >= known.line && line <= (known.end_line ?? known.line),
  );
}

function readCall(known: KnownFinding, round: number): Record<string, unknown> {
  const args = { path: known.path, start_line: Math.max(1, known.line - 8), end_line: known.line + 12 };
  return toolCallsTurn([{ id: `call_read_${round}`, name: "read_repository_file", arguments: args }]);
}

function reviewText(found: readonly KnownFinding[], random: () => number): string {
  const findings = found.map((known) => ({
    severity: known.severity,
    title: pick(random, known.titles),
    explanation: explanation(known, random),
    path: random() < 0.25 ? `./${known.path}` : known.path,
    line: known.line,
    ...(known.end_line === undefined ? {} : { end_line: known.end_line }),
    evidence: evidence(known, random),
    recommendation: known.recommendation ?? pick(random, RECOMMENDATIONS),
    ...(random() < 0.5 ? { suggestion: null } : {}),
  }));
  const summary =
    found.length === 0
      ? pick(random, ["The change looks good to me; nothing stood out.", "No issues found in this diff."])
      : pick(random, [
          `Overall the change is reasonable, but I found ${found.length} issue${found.length === 1 ? "" : "s"} worth addressing before merge.`,
          `Reviewed the diff. ${found.length === 1 ? "One problem" : `${found.length} problems`} below; the rest looks fine.`,
        ]);
  const notes = random() < 0.5 ? [] : ["I did not run the tests; the findings are from reading the code."];
  return answerJson({ summary, findings, notes }, random);
}

function verdictText(known: KnownFinding, random: () => number, fixed?: "confirmed" | "plausible"): string {
  const verdict = fixed ?? (random() < 0.75 ? "confirmed" : "plausible");
  const first = firstLine(known.code);
  const reason =
    verdict === "confirmed"
      ? pick(random, [
          `Line ${known.line} reads \`${first}\`, so the finding holds at the head commit.`,
          `Confirmed: \`${identifier(known.code)}\` is reached as described and nothing earlier guards it.`,
        ])
      : `The code at line ${known.line} matches the description, but whether ${impactOf(known)} depends on callers I could not see.`;
  return answerJson({ verdict, reason, quote: null }, random);
}

/** The answer as real models send it: bare JSON, pretty-printed, or inside one ```json fence. */
function answerJson(value: unknown, random: () => number): string {
  const draw = random();
  if (draw < 0.4) return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
  return draw < 0.7 ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

function evidence(known: KnownFinding, random: () => number): string {
  const lines = known.code.split("\n");
  const first = firstLine(known.code);
  switch (Math.floor(random() * 5)) {
    case 0:
      return `\`${identifier(known.code)}\` is called here before anything checks its input, so ${impactOf(known)}.`;
    case 1:
      return `Line ${known.line}: ${first}`;
    case 2:
      return lines.map((text, i) => `${known.line + i}: ${text}`).join("\n");
    case 3:
      return `Line ${known.line} reads: \`${first}\``;
    default:
      return `In \`${known.path.split("/").pop()}\` the flagged line runs unconditionally; ${impactOf(known)}.`;
  }
}

function explanation(known: KnownFinding, random: () => number): string {
  const id = identifier(known.code);
  return pick(random, [
    `\`${id}\` is used without a guard, which means ${impactOf(known)}. This path is reached on every call, not only in tests.`,
    `The logic here can misbehave: ${impactOf(known)}. Callers of \`${id}\` have no way to detect it.`,
    `Looking at \`${known.path}\`, the order of operations is wrong, so ${impactOf(known)}.`,
  ]);
}

const RECOMMENDATIONS = [
  "Move the check before the call and return early on failure.",
  "Guard the call and add a test that covers the failing input.",
  "Validate first; only then perform the side effect.",
];

function impactOf(known: KnownFinding): string {
  return known.impact ?? "invalid data can reach the write";
}

function firstLine(code: string): string {
  return (code.split("\n").find((line) => line.trim() !== "") ?? code).trim();
}

/** The first called name of the excerpt (`db.write`), else its first word. */
function identifier(code: string): string {
  return (
    /([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\(/.exec(code)?.[1] ??
    /[A-Za-z_$][\w$]*/.exec(code)?.[0] ??
    "it"
  );
}

function pick<T>(random: () => number, choices: readonly T[]): T {
  return choices[Math.floor(random() * choices.length)]!;
}

/** FNV-1a: a stable number for a request's subject. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
