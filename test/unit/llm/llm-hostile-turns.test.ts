import { describe, expect, it } from "@jest/globals";
import { DEFAULT_REVIEW_LIMITS } from "../../../src/config/review-limits.ts";
import { runReviewLoop } from "../../../src/llm/loop.ts";
import type { ChatProvider, ChatRequestBody } from "../../../src/llm/provider.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { createSpyRegistry, memoryView } from "../../support/fake-tools.ts";
import { DEFAULT_FILES, PROMPT } from "../../support/loop-harness.ts";

/** An in-process provider that returns scripted bodies and keeps the bodies it was sent. */
function inProcess(turns: unknown[]) {
  const sent: ChatRequestBody[] = [];
  const provider: ChatProvider = {
    async complete(body) {
      sent.push(body);
      const next = turns.shift();
      return next === undefined
        ? { kind: "failure", reason: "provider_unavailable" }
        : { kind: "response", body: next };
    },
  };
  return { provider, sent };
}

/** The loop over the default files and limits, with a spy registry, against this provider. */
async function loopWith(provider: ChatProvider, includeTrace = true) {
  const tools = createSpyRegistry();
  const result = await runReviewLoop({
    provider,
    tools,
    view: memoryView(DEFAULT_FILES),
    model: "m",
    prompt: PROMPT,
    limits: DEFAULT_REVIEW_LIMITS,
    includeTrace,
  });
  return { result, tools };
}

async function run(turns: unknown[]) {
  const { provider, sent } = inProcess(turns);
  return { ...(await loopWith(provider)), sent };
}

const call = (id: unknown, name: string, args: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  type: "function",
  function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
  ...extra,
});
const rawTurn = (calls: unknown[], finish: unknown = "tool_calls") => ({
  id: "t",
  choices: [
    { index: 0, finish_reason: finish, message: { role: "assistant", content: null, tool_calls: calls } },
  ],
});
const diff = (id: string) => call(id, "inspect_git_diff", {});

describe("hostile tool-call turns: one bad call and none runs", () => {
  it.each([
    ["a missing id", [call(undefined, "inspect_git_diff", {})]],
    ["a duplicate id in the turn", [diff("same"), diff("same")]],
    ["an unsafe id", [diff("../../etc"), diff("ok")]],
    ["an over-long id", [diff("x".repeat(129))]],
    ["a call that is not type function", [{ ...diff("a"), type: "code" }]],
    ["arguments that are not JSON", [call("a", "read_repository_file", "{path:")]],
    ["arguments that are a JSON array", [call("a", "read_repository_file", "[1]")]],
    ["extra properties", [call("a", "read_repository_file", { path: "x", command: "pytest" })]],
    ["wrong argument types", [call("a", "read_repository_file", { path: 7 })]],
    ["an unknown tool", [call("a", "run_shell", {})]],
    [
      "two calls where only the second is invalid",
      [diff("first"), call("second", "read_repository_file", "nope")],
    ],
  ])("%s → invalid_tool_call", async (_label, calls) => {
    const { result, tools } = await run([rawTurn(calls)]);
    expect(result.termination_reason).toBe("invalid_tool_call");
    expect(tools.executed).toEqual([]);
    expect(result.trace).toBeNull();
  });

  it("an id reused across turns → invalid_tool_call, the second turn does not run", async () => {
    const { result, tools } = await run([rawTurn([diff("once")]), rawTurn([diff("once")])]);
    expect(result.termination_reason).toBe("invalid_tool_call");
    expect(tools.executed).toHaveLength(1);
  });

  it.each([
    ["length", "unsupported_finish_reason"],
    ["content_filter", "unsupported_finish_reason"],
    [null, "unsupported_finish_reason"],
    ["something_new", "unsupported_finish_reason"],
  ])("finish_reason %p → %s", async (finish, reason) => {
    const { result } = await run([stopTurn(review(), { finishReason: finish })]);
    expect(result.termination_reason).toBe(reason);
  });

  it.each([
    ["no choices", { id: "x" }],
    ["two choices", { choices: [{ index: 0 }, { index: 1 }] }],
    [
      "choice at index 1",
      { choices: [{ index: 1, finish_reason: "stop", message: { role: "assistant", content: "{}" } }] },
    ],
    [
      "role user",
      { choices: [{ index: 0, finish_reason: "stop", message: { role: "user", content: "{}" } }] },
    ],
    ["stop with tool calls", rawTurn([diff("a")], "stop")],
    ["tool_calls turn without calls", rawTurn([])],
    ["a body that is an array", []],
  ])("malformed envelope: %s → invalid_model_response", async (_label, body) => {
    const { result, tools } = await run([body]);
    expect(result.termination_reason).toBe("invalid_model_response");
    expect(tools.executed).toEqual([]);
  });
});

describe("hostile final reviews → one repair round, then invalid_model_response with the exact checks", () => {
  const long = "é".repeat(4700); // 9.4 KB in UTF-8, under 8192 characters
  const NOT_JSON =
    "(answer): is not valid JSON; the final review must be one JSON object and nothing else, without Markdown or prose";
  it.each([
    ["empty content", "", ["(answer): has no text; the final review must be one JSON object"]],
    ["null content", null, ["(answer): has no text; the final review must be one JSON object"]],
    ["prose instead of JSON", "The code looks good to me.", [NOT_JSON]],
    ["prose around a fence", `Here it is:\n\`\`\`json\n${JSON.stringify(review())}\n\`\`\``, [NOT_JSON]],
    ["a JSON array", [], ["(root): must be a JSON object with summary, findings and notes"]],
    [
      "an extra top-level field",
      { ...review(), verdict: "ok" },
      ["verdict: is not a field of the final review (no additional fields are allowed)"],
    ],
    [
      "an extra finding field",
      review([{ ...finding(), confidence: 0.9 }]),
      ["findings[0].confidence: is not a field of the final review (no additional fields are allowed)"],
    ],
    [
      "a missing field and an odd key",
      { summary: "s", findings: [{ ...finding(), title: undefined, "@all <b>": 1 }], notes: [] },
      [
        "findings[0].title: is missing (a required field)",
        'findings[0]["@all <b>"]: is not a field of the final review (no additional fields are allowed)',
      ],
    ],
    [
      "101 findings",
      review(Array.from({ length: 101 }, () => finding())),
      ["findings: has 101 items; at most 100 are allowed"],
    ],
    [
      "101 notes",
      review(
        [],
        Array.from({ length: 101 }, () => "n"),
      ),
      ["notes: has 101 items; at most 100 are allowed"],
    ],
    [
      "a 9 KiB title",
      review([finding({ title: long })]),
      ["findings[0].title: is 9400 bytes of UTF-8; at most 8192 are allowed"],
    ],
    [
      "an unknown severity",
      review([finding({ severity: "blocker" })]),
      ["findings[0].severity: must be one of critical, high, medium, low, info"],
    ],
    ["line 0", review([finding({ line: 0 })]), ["findings[0].line: must be at least 1"]],
    [
      "a string line",
      review([finding({ line: "2" })]),
      ["findings[0].line: must be a positive whole number or null"],
    ],
    ["a fractional line", review([finding({ line: 1.5 })]), ["findings[0].line: must be a whole number"]],
    [
      "end_line before line",
      review([finding({ line: 3, end_line: 2 })]),
      ["findings[0].end_line: 2 is before line 3"],
    ],
    [
      "an end_line without line",
      review([finding({ line: null, end_line: 2 })]),
      ["findings[0].end_line: is set but line is null"],
    ],
    [
      "an absolute path",
      review([finding({ path: "/etc/passwd" })]),
      [
        'findings[0].path: is not a repository-relative path (no leading /, backslash, NUL, .. or .git) (got "/etc/passwd")',
      ],
    ],
    [
      "a .. path",
      review([finding({ path: "../outside.ts" })]),
      [
        'findings[0].path: is not a repository-relative path (no leading /, backslash, NUL, .. or .git) (got "../outside.ts")',
      ],
    ],
    [
      "a .git path",
      review([finding({ path: ".git/config" })]),
      [
        'findings[0].path: is not a repository-relative path (no leading /, backslash, NUL, .. or .git) (got ".git/config")',
      ],
    ],
    [
      "a symlink escaping the checkout",
      review([finding({ path: "escape.md", line: null })]),
      ['findings[0].path: resolves outside the repository (got "escape.md")'],
    ],
    [
      "a missing path, after a good finding",
      review([finding(), finding({ path: "src/missing.ts" })]),
      ['findings[1].path: no such file in the head commit (got "src/missing.ts")'],
    ],
    [
      "a directory",
      review([finding({ path: "src", line: null })]),
      ['findings[0].path: is a directory, not a file (got "src")'],
    ],
    [
      "a line past the end of the file",
      review([finding({ line: 99 })]),
      ["findings[0].line: 99 is past the end of src/service.ts (4 lines)"],
    ],
    [
      "an end_line past the end of the file",
      review([finding({ line: 1, end_line: 99 })]),
      ["findings[0].end_line: 99 is past the end of src/service.ts (4 lines)"],
    ],
    [
      "30 missing paths: 20 listed, the rest counted",
      review(Array.from({ length: 30 }, () => finding({ path: "gone.ts" }))),
      [
        ...Array.from(
          { length: 20 },
          (_, i) => `findings[${i}].path: no such file in the head commit (got "gone.ts")`,
        ),
        "… and 10 more failed checks",
      ],
    ],
  ] as [string, unknown, string[]][])("%s", async (_label, content, failures) => {
    const { result, sent } = await run([stopTurn(content), stopTurn(content)]);
    expect(result.termination_reason).toBe("invalid_model_response");
    expect(result.review).toBeNull();
    expect(result.validation_failures).toEqual(failures);
    expect(result.repair).toEqual({ failed_round: 1, failures, outcome: "failed" });
    // The repair request lists exactly these checks, after the failed answer as received.
    expect(sent).toHaveLength(2);
    const last = sent[1]?.messages.at(-1);
    expect(last?.role).toBe("user");
    for (const failure of failures) expect(last?.content).toContain(`- ${failure}`);
    expect(sent[1]?.tool_choice).toBe("none");
  });

  it.each([
    ["plain JSON", JSON.stringify(review([finding()]))],
    ["one ```json fence", `\`\`\`json\n${JSON.stringify(review([finding()]))}\n\`\`\``],
    [
      "a null line and a symlink inside the checkout",
      JSON.stringify(review([finding({ path: "docs/link.md", line: 1, evidence: "# widget" })])),
    ],
    ["optional fields present", JSON.stringify(review([finding({ end_line: 3, suggestion: null })]))],
  ])("accepts %s", async (_label, content) => {
    const { result } = await run([stopTurn(content)]);
    expect(result.termination_reason).toBe("final_review");
  });
});

describe("nothing is shared by reference between turns", () => {
  it("mutating a received turn or a sent body later changes no other request", async () => {
    const first = toolCallsTurn([
      {
        id: "c1",
        name: "inspect_git_diff",
        arguments: {},
        extra: { extra_content: { google: { thought_signature: "sig" } } },
      },
    ]);
    const second = toolCallsTurn([{ id: "c2", name: "inspect_git_diff", arguments: {} }]);
    const turns: unknown[] = [first, second, stopTurn(review())];
    const snapshots: string[] = [];
    const sent: ChatRequestBody[] = [];
    const provider: ChatProvider = {
      async complete(body) {
        sent.push(body);
        snapshots.push(JSON.stringify(body));
        // A hostile or buggy provider layer mutating what it got and what it gave earlier:
        (body.messages[0] as Record<string, unknown>).content = "tampered";
        const msg = (first.choices as [{ message: { tool_calls: { extra_content: unknown }[] } }])[0].message;
        if (sent.length === 2)
          msg.tool_calls[0]!.extra_content = { google: { thought_signature: "changed" } };
        return { kind: "response", body: turns.shift() };
      },
    };
    const { result } = await loopWith(provider, false);
    expect(result.termination_reason).toBe("final_review");
    expect(result.trace).toBeNull();
    const third = JSON.parse(snapshots[2] ?? "{}") as { messages: Record<string, unknown>[] };
    expect(third.messages[0]?.content).not.toBe("tampered");
    expect(JSON.stringify(third.messages[2])).toContain('"thought_signature":"sig"');
    // Each body the provider got is its own object graph.
    expect(sent[1]?.messages[2]).not.toBe(sent[2]?.messages[2]);
  });
});
