// Reads the protocol metadata of a chat-completions body (id, model, usage) without trusting it:
// anything missing or malformed becomes null rather than an exception.

import { readSpend, type Spend } from "../domain/spend.ts";
import type { Usage } from "./types.ts";

export interface Envelope {
  readonly id: string | null;
  readonly model: string | null;
  readonly finishReason: string | null;
  readonly usage: Usage | null;
  /** The same usage split as it is billed (cached input apart), with any cost the provider reported. */
  readonly spend: Spend | null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const count = (value: unknown): number | null =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;

export function readUsage(value: unknown): Usage | null {
  if (!isRecord(value)) return null;
  const prompt = count(value.prompt_tokens);
  const completion = count(value.completion_tokens);
  const total =
    count(value.total_tokens) ?? (prompt !== null && completion !== null ? prompt + completion : null);
  if (total === null) return null;
  return { prompt_tokens: prompt ?? 0, completion_tokens: completion ?? 0, total_tokens: total };
}

export function readEnvelope(body: unknown): Envelope {
  const record = isRecord(body) ? body : {};
  const choice = Array.isArray(record.choices) && isRecord(record.choices[0]) ? record.choices[0] : {};
  const short = (value: unknown): string | null =>
    typeof value === "string" && value.length <= 256 ? value : null;
  return {
    id: short(record.id),
    model: short(record.model),
    finishReason: short(choice.finish_reason),
    usage: readUsage(record.usage),
    spend: readSpend(record.usage),
  };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}
