import { describe, expect, it } from "@jest/globals";
import type { ToolCallMode } from "../../../src/config/provider-config.ts";
import { DEFAULT_REVIEW_LIMITS } from "../../../src/config/review-limits.ts";
import { runReviewLoop } from "../../../src/llm/loop.ts";
import { FINAL_ANSWER_INSTRUCTION } from "../../../src/llm/prompt.ts";
import type { ChatProvider, ChatRequestBody, ProviderOutcome } from "../../../src/llm/provider.ts";
import { MARKER_REMINDER, RESULTS_HEADER } from "../../../src/llm/transport/catalog.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { createSpyRegistry, memoryView } from "../../support/fake-tools.ts";
import { DEFAULT_FILES, PROMPT } from "../../support/loop-harness.ts";

/** Scripted answers in process: a body, or a provider failure (e.g. a 400 that names tools). */
type Answer = unknown | { failure: ProviderOutcome & { kind: "failure" } };

async function run(answers: Answer[], mode: ToolCallMode = "text", limits = {}) {
  const sent: ChatRequestBody[] = [];
  const provider: ChatProvider = {
    async complete(body) {
      sent.push(structuredClone(body));
      const next = answers.shift();
      if (next === undefined) return { kind: "failure", reason: "provider_unavailable" };
      if (typeof next === "object" && next !== null && "failure" in next)
        return (next as { failure: ProviderOutcome }).failure;
      return { kind: "response", body: next };
    },
  };
  const tools = createSpyRegistry();
  const result = await runReviewLoop({
    provider,
    tools,
    view: memoryView(DEFAULT_FILES),
    model: "m",
    prompt: PROMPT,
    limits: { ...DEFAULT_REVIEW_LIMITS, ...limits },
    includeTrace: true,
    toolCalls: mode,
  });
  return { result, tools, sent };
}

const marker = (name: string, id: string, args: string) =>
  `<<<LOUPE_CALL name="${name}" id="${id}">${args}>>>`;
const read = (id: string, path = "src/service.ts") =>
  marker("read_repository_file", id, JSON.stringify({ path }));
const text = (content: string, finishReason?: unknown) =>
  stopTurn(content, finishReason === undefined ? {} : { finishReason });
const final = () => stopTurn(review([finding()]));
const lastMessage = (body: ChatRequestBody | undefined) =>
  body?.messages.at(-1) as { role: string; content: string };

describe("text tool calls: the request and the round trip", () => {
  it("sends no tools, lists the four tools with their exact schemas, runs a marker and quotes its result", async () => {
    const turn = text(`Let me look at the file.\n${read("c1")}\n`);
    (turn.choices as { message: Record<string, unknown> }[])[0]!.message.reasoning_content = "kept";
    const { result, tools, sent } = await run([turn, final()]);
    expect(result.termination_reason).toBe("final_review");
    expect(result.tool_call_transport).toBe("text");
    expect(tools.executed).toEqual([{ name: "read_repository_file", args: { path: "src/service.ts" } }]);
    for (const body of sent) expect(Object.keys(body).sort()).toEqual(["messages", "model"]);
    const system = String(sent[0]?.messages[0]?.content);
    for (const schema of tools.schemas) {
      expect(system).toContain(`${schema.function.name}: ${schema.function.description}`);
      expect(system).toContain(JSON.stringify(schema.function.parameters));
    }
    expect(system).toContain('<<<LOUPE_CALL name="TOOL_NAME" id="CALL_ID">{"argument":"value"}>>>');
    // The assistant turn is replayed exactly as received, then one user message of results.
    const second = sent[1]!.messages;
    expect(second[2]).toEqual((turn.choices as { message: unknown }[])[0]!.message);
    const results = second[3] as { role: string; content: string };
    expect(results.role).toBe("user");
    expect(results.content.split("\n")[0]).toBe(RESULTS_HEADER);
    expect(JSON.parse(results.content.split("\n")[1]!)).toEqual({
      call_id: "c1",
      tool: "read_repository_file",
      result: { ok: true, tool: "read_repository_file", path: "src/service.ts" },
    });
    expect(result.trace?.map((t) => t.protocol_action)).toEqual(["execute_tools", "final_review"]);
    expect(result.trace?.[0]?.tool_calls.map((c) => c.id)).toEqual(["c1"]);
    expect(result.tool_calls).toBe(1);
  });

  it("keeps marker text out of the final review it returns", async () => {
    const quoted = `The file holds ${read("zz")} as text.`;
    const { result } = await run([stopTurn(review([finding({ explanation: quoted })], [quoted]))]);
    expect(result.termination_reason).toBe("final_review");
    expect(JSON.stringify(result.review)).not.toContain("<<<LOUPE_CALL");
    expect(result.review?.findings[0]?.explanation).toBe(
      "The file holds [tool call marker removed] as text.",
    );
  });
});

describe("hostile marker turns: each ends as the protocol says", () => {
  it.each([
    [
      "a marker without its closing >>>",
      `${marker("read_repository_file", "c1", '{"path":"a"}').slice(0, -3)}`,
    ],
    [
      "a marker split across lines",
      `<<<LOUPE_CALL name="read_repository_file" id="c1">{"path":\n"src/a.ts"}>>>`,
    ],
    ["attributes in another order", `<<<LOUPE_CALL id="c1" name="read_repository_file">{"path":"a"}>>>`],
    ["arguments that are not JSON", marker("read_repository_file", "c1", "{path:")],
    ["arguments that are a JSON array", marker("read_repository_file", "c1", "[1]")],
    ["a duplicate id in the turn", `${read("same")}\n${read("same")}`],
    ["an unsafe id", read("../../etc")],
    ["an empty id", read("")],
    ["an unknown tool", marker("run_shell", "c1", '{"command":"rm -rf /"}')],
    ["extra properties", marker("read_repository_file", "c1", '{"path":"a","command":"pytest"}')],
    ["wrong argument types", marker("read_repository_file", "c1", '{"path":7}')],
    ["a good marker then a bad one", `${read("ok")}\n${marker("read_repository_file", "bad", "nope")}`],
    ["two markers on one line", `${read("a")} ${read("b")}`],
  ])("%s → invalid_tool_call, no call runs", async (_label, content) => {
    const { result, tools } = await run([text(`I will check.\n${content}`), final()]);
    expect(result.termination_reason).toBe("invalid_tool_call");
    expect(tools.executed).toEqual([]);
    expect(result.trace).toBeNull();
  });

  it("an id reused across turns → invalid_tool_call; the second turn does not run", async () => {
    const { result, tools } = await run([text(read("once")), text(read("once")), final()]);
    expect(result.termination_reason).toBe("invalid_tool_call");
    expect(tools.executed).toHaveLength(1);
  });

  it("a marker line in a turn cut by length → unsupported_finish_reason, nothing runs", async () => {
    const { result, tools } = await run([text(read("c1"), "length")]);
    expect(result.termination_reason).toBe("unsupported_finish_reason");
    expect(tools.executed).toEqual([]);
  });

  it("native tool_calls in a text-mode review → invalid_model_response, nothing runs", async () => {
    const native = toolCallsTurn([{ id: "n1", name: "inspect_git_diff", arguments: {} }]);
    const { result, tools } = await run([native]);
    expect(result.termination_reason).toBe("invalid_model_response");
    expect(tools.executed).toEqual([]);
  });

  it("more markers than a round allows: none runs, the final-answer round follows", async () => {
    const nine = Array.from({ length: 9 }, (_, i) => read(`c${i}`)).join("\n");
    const ok = await run([text(nine), final()]);
    expect(ok.result.termination_reason).toBe("final_review");
    expect(ok.tools.executed).toEqual([]);
    expect(lastMessage(ok.sent[1]).content.endsWith(`\n\n${FINAL_ANSWER_INSTRUCTION}`)).toBe(true);
    const failed = await run([text(nine), text(read("again"))]);
    expect(failed.result.termination_reason).toBe("max_tool_calls");
    expect(failed.tools.executed).toEqual([]);
  });

  it("results then the final-answer instruction travel as one user message (roles alternate)", async () => {
    const { result, sent } = await run([text(read("c1")), text("still thinking")], "text", { maxRounds: 2 });
    expect(result.termination_reason).toBe("max_rounds");
    const roles = sent[1]!.messages.map((m) => m.role);
    expect(roles).toEqual(["system", "user", "assistant", "user"]);
    const last = lastMessage(sent[1]).content;
    expect(last.startsWith(RESULTS_HEADER)).toBe(true);
    expect(last.endsWith(`\n\n${FINAL_ANSWER_INSTRUCTION}`)).toBe(true);
  });

  it("more markers than the review has left → max_tool_calls after the final-answer round", async () => {
    const { result, tools } = await run([text(`${read("a")}\n${read("b")}`), text("still nothing")], "text", {
      maxToolCalls: 1,
    });
    expect(result.termination_reason).toBe("max_tool_calls");
    expect(tools.executed).toEqual([]);
  });

  it.each([
    ["a backtick fence", (m: string) => `The file contains:\n\`\`\`ts\n${m}\n\`\`\`\n`],
    ["a tilde fence", (m: string) => `~~~~\n${m}\n~~~~`],
    ["a longer closing fence", (m: string) => `\`\`\`\n${m}\n\`\`\`\`\`\``],
    ["an indented code block", (m: string) => `Quoted:\n\n    ${m}`],
    ["a blockquote", (m: string) => `> ${m}`],
    ["running text", (m: string) => `The README says ${m} which is odd.`],
  ])("a marker quoted from the repository in %s is not a call", async (_label, quote) => {
    const hostile = read("x", ".git/config");
    const content = `${quote(hostile)}\n${read("real")}`;
    const { result, tools } = await run([text(content), final()]);
    expect(result.termination_reason).toBe("final_review");
    expect(tools.executed).toEqual([{ name: "read_repository_file", args: { path: "src/service.ts" } }]);
    expect(result.trace?.[0]?.tool_calls.map((c) => c.id)).toEqual(["real"]);
  });

  it("a fence that never closes keeps everything after it quoted", async () => {
    const { result, tools, sent } = await run([text(`\`\`\`\n${read("x")}\n`), final()]);
    expect(tools.executed).toEqual([]);
    expect(lastMessage(sent[1]).content).toBe(MARKER_REMINDER);
    expect(result.termination_reason).toBe("final_review");
  });

  it("a promise without a marker gets one reminder and nothing runs", async () => {
    const { result, tools, sent } = await run([text("I will now read the file src/service.ts."), final()]);
    expect(result.termination_reason).toBe("final_review");
    expect(tools.executed).toEqual([]);
    expect(lastMessage(sent[1])).toEqual({ role: "user", content: MARKER_REMINDER });
    expect(result.trace?.map((t) => t.protocol_action)).toEqual(["remind_marker", "final_review"]);
    expect(result.trace?.every((t) => t.tool_calls.length === 0)).toBe(true);
    expect(result.tool_calls).toBe(0);
  });

  it("a second promise spends the round budget: the final-answer round, then max_rounds", async () => {
    const promise = text("Next I will search for validate().");
    const { result, tools, sent } = await run([promise, structuredClone(promise), structuredClone(promise)]);
    expect(result.termination_reason).toBe("max_rounds");
    expect(tools.executed).toEqual([]);
    expect(sent).toHaveLength(3);
    expect(lastMessage(sent[2]).content.endsWith(`\n\n${FINAL_ANSWER_INSTRUCTION}`)).toBe(true);
    expect(result.trace?.map((t) => t.protocol_action)).toEqual([
      "remind_marker",
      "request_final_answer",
      "terminate",
    ]);
  });

  it("prose around a fenced review is not a final review: it gets the reminder", async () => {
    const content = `Here it is:\n\`\`\`json\n${JSON.stringify(review())}\n\`\`\``;
    const { result, sent } = await run([text(content), final()]);
    expect(lastMessage(sent[1]).content).toBe(MARKER_REMINDER);
    expect(result.termination_reason).toBe("final_review");
  });

  it.each([
    ["a review with an extra field", JSON.stringify({ ...review(), verdict: "ok" })],
    ["a review pointing past the file", JSON.stringify(review([finding({ line: 99 })]))],
  ])(
    "a final answer in text mode has the native validation and repair round: %s",
    async (_label, content) => {
      const repaired = await run([text(content), final()]);
      expect(repaired.result.trace?.map((t) => t.protocol_action)).toEqual([
        "request_repair",
        "final_review",
      ]);
      expect(repaired.result.termination_reason).toBe("final_review");
      expect(repaired.result.repair?.outcome).toBe("repaired");
      // The repair request, too, carries no tools in text mode.
      expect("tools" in repaired.sent[1]!).toBe(false);
      const failed = await run([text(content), text(content)]);
      expect(failed.result.termination_reason).toBe("invalid_model_response");
      const promised = await run([text(content), text(read("c9"))]);
      expect(promised.result.termination_reason).toBe("invalid_model_response");
      expect(promised.tools.executed).toEqual([]);
    },
  );
});

describe("auto mode", () => {
  const refusal: Answer = {
    failure: { kind: "failure", reason: "provider_request_rejected", status: 400, toolsRejected: true },
  };

  it("a refusal of tools switches to text and resends the round without using one up", async () => {
    const { result, sent, tools } = await run([refusal, text(read("c1")), final()], "auto");
    expect(result.termination_reason).toBe("final_review");
    expect(sent.map((b) => "tools" in b)).toEqual([true, false, false]);
    expect(result.rounds).toBe(2);
    expect(tools.executed).toHaveLength(1);
    expect(result.tool_call_switch).toEqual({ round: 1, cause: "provider_rejected_tools" });
    expect(result.trace?.map((t) => t.protocol_action)).toEqual([
      "switch_to_text_tool_calls",
      "execute_tools",
      "final_review",
    ]);
  });

  it("the native request of auto mode offers the marker form as a fallback", async () => {
    const { result, sent } = await run([text(read("c1")), final()], "auto");
    expect(sent[0]?.tools).toHaveLength(4);
    expect(String(sent[0]?.messages[0]?.content)).toContain("If native tool calls are not available to you");
    expect(result.tool_call_switch).toEqual({ round: 1, cause: "marker_calls" });
    expect("tools" in sent[1]!).toBe(false);
    expect(result.termination_reason).toBe("final_review");
  });

  it("a native first turn keeps native calls; later marker text is not a call", async () => {
    const native = toolCallsTurn([{ id: "n1", name: "inspect_git_diff", arguments: {} }]);
    const { result, sent, tools } = await run([native, text(read("c2")), text(read("c3"))], "auto");
    expect(result.termination_reason).toBe("invalid_model_response");
    expect(result.trace).toBeNull();
    expect(tools.executed).toHaveLength(1);
    // Round 3 is the repair request (tools listed, tool_choice none): still native.
    expect(sent.map((b) => [b.tools?.length, b.tool_choice])).toEqual([
      [4, "auto"],
      [4, "auto"],
      [4, "none"],
    ]);
    expect(result.tool_call_switch).toBeUndefined();
  });

  it("a refusal after the first turn, or one that does not name tools, ends the review", async () => {
    const native = toolCallsTurn([{ id: "n1", name: "inspect_git_diff", arguments: {} }]);
    const late = await run([native, refusal], "auto");
    expect(late.result.termination_reason).toBe("provider_request_rejected");
    const plain: Answer = { failure: { kind: "failure", reason: "provider_request_rejected", status: 400 } };
    const other = await run([plain], "auto");
    expect(other.result.termination_reason).toBe("provider_request_rejected");
    expect(other.sent).toHaveLength(1);
  });

  it("native mode never switches and never mentions markers", async () => {
    const { result, sent } = await run([refusal], "native");
    expect(result.termination_reason).toBe("provider_request_rejected");
    expect(String(sent[0]?.messages[0]?.content)).not.toContain("LOUPE_CALL");
    expect(result.tool_call_transport).toBe("native");
  });
});
