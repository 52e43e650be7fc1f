// The round-atomic validation of one provider turn, in the protocol's order, before any call runs:
// one choice at index 0, role assistant, a supported finish_reason, safe unique call ids of type
// function, call counts within limits, arguments that parse to a JSON object, a known tool name
// and arguments that match its strict schema. Pure: it only reads the body and the registry.

import type { ToolName, ToolRegistry } from "../tools/types.ts";
import { isRecord } from "./envelope.ts";

export const SAFE_CALL_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export interface ValidCall {
  readonly id: string;
  readonly name: ToolName;
  /** Arguments as the model sent them (parsed JSON), for the trace. */
  readonly rawArguments: Readonly<Record<string, unknown>>;
  /** Arguments after strict validation, defaults applied: what the tool runs with. */
  readonly args: unknown;
}

export type TurnRejection =
  | "invalid_model_response"
  | "unsupported_finish_reason"
  | "invalid_tool_call"
  | "max_tool_calls";

export type TurnVerdict =
  | {
      readonly kind: "tool_calls";
      readonly message: Record<string, unknown>;
      readonly calls: readonly ValidCall[];
    }
  | { readonly kind: "stop"; readonly message: Record<string, unknown>; readonly content: unknown }
  | { readonly kind: "reject"; readonly reason: TurnRejection; readonly problem: string };

export interface TurnContext {
  readonly registry: Pick<ToolRegistry, "isToolName" | "parseArguments">;
  /** Call ids of every earlier turn of this review. */
  readonly seenIds: ReadonlySet<string>;
  readonly toolCallsSoFar: number;
  readonly maxToolCallsPerRound: number;
  readonly maxToolCalls: number;
}

const reject = (reason: TurnRejection, problem: string): TurnVerdict => ({ kind: "reject", reason, problem });

export function validateTurn(body: unknown, context: TurnContext): TurnVerdict {
  if (!isRecord(body) || !Array.isArray(body.choices))
    return reject("invalid_model_response", "no choices array");
  const [choice] = body.choices;
  if (body.choices.length !== 1 || !isRecord(choice) || choice.index !== 0) {
    return reject("invalid_model_response", "not exactly one choice at index 0");
  }
  const message = choice.message;
  if (!isRecord(message)) return reject("invalid_model_response", "choice has no message object");
  if (message.role !== "assistant") return reject("invalid_model_response", "message role is not assistant");
  const rawCalls = message.tool_calls ?? [];
  if (!Array.isArray(rawCalls)) return reject("invalid_model_response", "tool_calls is not an array");
  if (choice.finish_reason === "stop") {
    if (rawCalls.length > 0) return reject("invalid_model_response", "stop turn carries tool calls");
    return { kind: "stop", message, content: message.content };
  }
  if (choice.finish_reason !== "tool_calls")
    return reject("unsupported_finish_reason", "unsupported finish_reason");
  if (rawCalls.length === 0) return reject("invalid_model_response", "tool_calls turn without calls");
  return validateCalls(message, rawCalls, context);
}

/** Calls in the native shape ({id, type, function: {name, arguments}}), from any transport. */
export function validateCalls(
  message: Record<string, unknown>,
  rawCalls: unknown[],
  context: TurnContext,
): TurnVerdict {
  const ids = new Set<string>();
  for (const call of rawCalls) {
    if (!isRecord(call) || typeof call.id !== "string" || !SAFE_CALL_ID.test(call.id)) {
      return reject("invalid_tool_call", "a call has no safe id");
    }
    if (call.type !== "function" || !isRecord(call.function))
      return reject("invalid_tool_call", "a call is not a function");
    if (ids.has(call.id) || context.seenIds.has(call.id))
      return reject("invalid_tool_call", "a call id is reused");
    ids.add(call.id);
  }
  if (
    rawCalls.length > context.maxToolCallsPerRound ||
    context.toolCallsSoFar + rawCalls.length > context.maxToolCalls
  ) {
    return reject("max_tool_calls", "too many tool calls");
  }
  const calls: ValidCall[] = [];
  for (const call of rawCalls as Array<{ id: string; function: Record<string, unknown> }>) {
    const { name, arguments: text } = call.function;
    if (typeof text !== "string") return reject("invalid_tool_call", "arguments is not a string");
    let rawArguments: unknown;
    try {
      rawArguments = JSON.parse(text);
    } catch {
      return reject("invalid_tool_call", "arguments is not JSON");
    }
    if (!isRecord(rawArguments)) return reject("invalid_tool_call", "arguments is not a JSON object");
    if (typeof name !== "string" || !context.registry.isToolName(name))
      return reject("invalid_tool_call", "unknown tool");
    const parsed = context.registry.parseArguments(name, rawArguments);
    if (!parsed.ok) return reject("invalid_tool_call", "arguments do not match the tool schema");
    calls.push({ id: call.id, name, rawArguments, args: parsed.args });
  }
  return { kind: "tool_calls", message, calls };
}
