// Builders for chat-completions bodies used by the loop tests: a tool-calls turn and a stop turn,
// in the exact envelope of the protocol (one choice at index 0, usage), with room for extra fields.

export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string | Record<string, unknown>;
  readonly extra?: Readonly<Record<string, unknown>>;
}

let counter = 0;

export function toolCallsTurn(
  calls: readonly ScriptedCall[],
  options: { messageExtra?: Record<string, unknown>; id?: string; usage?: Record<string, unknown> } = {},
): Record<string, unknown> {
  counter++;
  return {
    id: options.id ?? `chatcmpl_${counter}`,
    model: "deepseek-v4-flash",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          content: null,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function",
            function: {
              name: call.name,
              arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
            },
            ...call.extra,
          })),
          ...options.messageExtra,
        },
      },
    ],
    usage: options.usage ?? { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  };
}

export function stopTurn(
  content: unknown,
  options: { finishReason?: unknown; messageExtra?: Record<string, unknown> } = {},
): Record<string, unknown> {
  counter++;
  return {
    id: `chatcmpl_${counter}`,
    model: "deepseek-v4-flash",
    choices: [
      {
        index: 0,
        finish_reason: options.finishReason === undefined ? "stop" : options.finishReason,
        message: {
          role: "assistant",
          content: typeof content === "string" || content === null ? content : JSON.stringify(content),
          ...options.messageExtra,
        },
      },
    ],
    usage: { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220 },
  };
}

/** A final review that found nothing: what the model answers on a clean change. */
export function nothingFound(): Record<string, unknown> {
  return stopTurn({ summary: "Fine.", findings: [], notes: [] });
}

export function review(findings: readonly Record<string, unknown>[] = [], notes: readonly string[] = []) {
  return { summary: "Looks fine overall.", findings, notes };
}

export function finding(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    severity: "high",
    title: "Validation occurs after the write",
    explanation: "Invalid state can be saved.",
    path: "src/service.ts",
    line: 2,
    // The fixtures' src/service.ts writes before it validates, on its second line.
    evidence: "db.write(",
    recommendation: "Validate before save.",
    ...overrides,
  };
}
