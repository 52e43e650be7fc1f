// The judge's question, worded as the benchmark's own judge asks it (same instructions, same JSON
// answer), so that a match means what it means in the published figures. The temperature is 0 as
// there. An answer that is not that JSON counts as an error of the pair, never as a match.

import type { Finding } from "../domain/finding.ts";
import type { ChatRequestBody } from "../llm/provider.ts";

const SYSTEM = "You are a precise code review evaluator. Always respond with valid JSON.";

function question(golden: string, candidate: string): string {
  return `You are evaluating AI code review tools.
Determine if the candidate issue matches the golden (expected) comment.

Golden Comment (the issue we're looking for):
${golden}

Candidate Issue (from the tool's review):
${candidate}

Instructions:
- Determine if the candidate identifies the SAME underlying issue as the golden comment
- Accept semantic matches - different wording is fine if it's the same problem
- Focus on whether they point to the same bug, concern, or code issue

Respond with ONLY a JSON object:
{"reasoning": "brief explanation", "match": true/false, "confidence": 0.0-1.0}`;
}

/** A published finding as one candidate text: where, what, and why. */
export function candidateText(finding: Finding): string {
  const where = finding.line === null ? finding.path : `${finding.path}:${finding.line}`;
  return `${where}: ${finding.title}\n${finding.explanation}`;
}

export function judgeRequest(model: string, golden: string, candidate: string): ChatRequestBody {
  return {
    model,
    temperature: 0,
    messages: [
      { role: "system", content: SYSTEM },
      { role: "user", content: question(golden, candidate) },
    ],
  } as unknown as ChatRequestBody;
}

export type JudgeVerdict =
  | {
      readonly kind: "verdict";
      readonly match: boolean;
      readonly confidence: number;
      readonly reasoning: string;
    }
  | { readonly kind: "error"; readonly error: string };

/** Reads the judge's chat-completions answer (a fenced block is unwrapped, as the benchmark does). */
export function readVerdict(body: unknown): JudgeVerdict {
  const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message
    ?.content;
  if (typeof content !== "string") return { kind: "error", error: "no message content" };
  const text = content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, "$1");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "error", error: "not JSON" };
  }
  const answer = json as { match?: unknown; confidence?: unknown; reasoning?: unknown };
  if (typeof answer.match !== "boolean") return { kind: "error", error: "no boolean match" };
  const confidence =
    typeof answer.confidence === "number" && Number.isFinite(answer.confidence) ? answer.confidence : 0;
  return {
    kind: "verdict",
    match: answer.match,
    confidence,
    reasoning: typeof answer.reasoning === "string" ? answer.reasoning : "",
  };
}
