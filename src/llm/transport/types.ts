// A turn transport is how one review's tool calls travel: it builds each round's request and reads
// the calls out of each answer. Native calls ride in `tools`/`tool_calls`; text calls are marker
// lines in the model's text. Both hand the loop the same verdicts and the same validated calls,
// so the rest of the loop (budgets, execution, trace, final review) does not know which one ran.

import type { ChatMessage, ChatRequestBody } from "../provider.ts";
import type { TurnContext, TurnVerdict, ValidCall } from "../validate-turn.ts";

export type TransportKind = "native" | "text";

export type TransportVerdict =
  | TurnVerdict
  /** Text mode: prose with no marker and no attempt at the final JSON (a promise is not a call). */
  | { readonly kind: "no_call"; readonly message: Record<string, unknown> };

export interface TurnTransport {
  readonly kind: TransportKind;
  /** This round's request over the history (deep-copied: the provider cannot reach the history). */
  request(history: readonly ChatMessage[], finalRound: boolean): ChatRequestBody;
  /** The whole turn, validated round-atomically, before any call runs. */
  read(body: unknown, context: TurnContext): TransportVerdict;
  /** The messages that follow the replayed assistant message: the round's results, in call order. */
  results(calls: readonly ValidCall[], toolMessages: readonly ChatMessage[]): ChatMessage[];
}

/** The system message is the history's first message; a transport may add its own section. */
export function withSystemSection(history: readonly ChatMessage[], section: string | null): ChatMessage[] {
  const copy = structuredClone(history) as ChatMessage[];
  const first = copy[0];
  if (section === null || first === undefined || first.role !== "system") return copy;
  copy[0] = { ...first, content: `${String(first.content)}\n\n${section}` };
  return copy;
}
