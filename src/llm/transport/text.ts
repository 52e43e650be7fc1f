// Text tool calls: the request carries no `tools` (servers without a tool-call template refuse
// them); the system message lists the tools and the marker form. Markers become calls of the
// native shape and go through the very same validator; results go back as one user message that
// quotes each result with its call id, labelled untrusted.

import type { ChatMessage } from "../provider.ts";
import { validateCalls, validateTurn } from "../validate-turn.ts";
import { RESULTS_HEADER } from "./catalog.ts";
import { scanMarkers } from "./markers.ts";
import type { TransportVerdict, TurnTransport } from "./types.ts";
import { withSystemSection } from "./types.ts";

export function createTextTransport(options: {
  readonly model: string;
  readonly catalog: string;
}): TurnTransport {
  return {
    kind: "text",
    request: (history) => ({
      model: options.model,
      messages: joinUserRuns(withSystemSection(history, options.catalog)),
    }),
    read(body, context): TransportVerdict {
      const verdict = validateTurn(body, context);
      if (verdict.kind === "reject") return verdict;
      if (verdict.kind === "tool_calls") {
        return {
          kind: "reject",
          reason: "invalid_model_response",
          problem: "native tool calls in a text-mode review",
        };
      }
      const scan = scanMarkers(verdict.content);
      if (scan.kind === "malformed") {
        return {
          kind: "reject",
          reason: "invalid_tool_call",
          problem: `marker on line ${scan.line} is malformed`,
        };
      }
      if (scan.kind === "none") {
        return looksLikeJson(verdict.content) ? verdict : { kind: "no_call", message: verdict.message };
      }
      const rawCalls = scan.calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      }));
      return validateCalls(verdict.message, rawCalls, context);
    },
    results(calls, toolMessages): ChatMessage[] {
      const lines = toolMessages.map((message, index) => {
        const call = calls[index];
        // Tool content is compact JSON (one line: newlines inside it are escaped).
        return `{"call_id":${JSON.stringify(call?.id ?? "")},"tool":${JSON.stringify(call?.name ?? "")},"result":${String(message.content)}}`;
      });
      return [{ role: "user", content: [RESULTS_HEADER, ...lines].join("\n") }];
    },
  };
}

/**
 * An answer that starts like the final review (a JSON object, or a fenced one) is judged as the
 * final review, with its full validation; anything else without a marker is prose.
 */
function looksLikeJson(content: unknown): boolean {
  if (typeof content !== "string") return true; // null/empty: the final-review check says why
  const text = content.trim();
  return text === "" || text.startsWith("{") || /^```(?:json)?[ \t]*\r?\n\s*\{/.test(text);
}

/**
 * Results, then the final-answer instruction, would be two user messages in a row; chat templates
 * of servers without tool support often insist that roles alternate, so a run becomes one message.
 * Only user messages are joined: an assistant message is always replayed as received.
 */
function joinUserRuns(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (last?.role === "user" && message.role === "user" && typeof last.content === "string") {
      out[out.length - 1] = { ...last, content: `${last.content}\n\n${String(message.content)}` };
    } else {
      out.push(message);
    }
  }
  return out;
}
