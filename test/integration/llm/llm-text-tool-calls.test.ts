// Auto tool calls through the real openai client over HTTP: which provider refusals switch the
// review to text markers (a 400/422 whose error names tools or tool_choice) and which do not.

import { describe, expect, it } from "@jest/globals";
import { finding, review, stopTurn } from "../../support/chat-turns.ts";
import { runScriptedReview } from "../../support/loop-harness.ts";

const marker = '<<<LOUPE_CALL name="read_repository_file" id="c1">{"path":"src/service.ts"}>>>';
const textTurns = () => [{ body: stopTurn(marker) }, { body: stopTurn(review([finding()])) }];
const refusal = (status: number, message: string) => ({ status, body: { error: { message } } });

describe("auto mode over HTTP", () => {
  it("a server that refuses every request with tools: the review completes with markers", async () => {
    const run = await runScriptedReview(textTurns(), {
      toolCalls: "auto",
      realTools: true,
      server: { rejectTools: true },
    });
    expect(run.result.termination_reason).toBe("final_review");
    expect(run.requests).toHaveLength(3);
    expect(run.requests[0]!.bodyText).toContain('"tools"');
    expect(run.requests.slice(1).every((r) => !("tools" in (r.body as object)))).toBe(true);
    expect(run.result.trace?.[1]?.tool_calls[0]).toMatchObject({ id: "c1", ok: true });
  });

  it.each([
    [422, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'],
    [400, "registry.ollama.ai/library/gemma does not support tools"],
    [400, "Unrecognized request argument supplied: tool_choice"],
  ])("%i %p switches to text", async (status, message) => {
    const run = await runScriptedReview([refusal(status, message), ...textTurns()], {
      toolCalls: "auto",
      realTools: true,
    });
    expect(run.result.termination_reason).toBe("final_review");
    expect(run.result.tool_call_switch).toEqual({ round: 1, cause: "provider_rejected_tools" });
  });

  it.each([
    [400, "This model's maximum context length is 8192 tokens", "provider_request_rejected"],
    [404, "tools endpoint not found", "provider_request_rejected"],
    [500, "tool_choice crashed", "provider_unavailable"],
  ])("%i %p does not switch: %s", async (status, message, reason) => {
    const run = await runScriptedReview([refusal(status, message)], { toolCalls: "auto" });
    expect(run.result.termination_reason).toBe(reason);
    expect(run.result.tool_call_switch).toBeUndefined();
    expect(run.requests).toHaveLength(1);
  });
});
