// The repair round over HTTP: the scripted provider answers with a final review that fails
// validation, then with whatever the scenario needs; the loop must send exactly one repair
// request naming the failed checks, and say in the result and the trace what came of it.

import { describe, expect, it } from "@jest/globals";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { bodyAt, runScriptedReview } from "../../support/loop-harness.ts";

const MISSING = 'findings[0].path: no such file in the head commit (got "src/missing.ts")';
const PAST_END = "findings[0].line: 812 is past the end of src/service.ts (4 lines)";
const bad = () => stopTurn(review([finding({ path: "src/missing.ts" })]));
const good = () => stopTurn(review([finding()], ["Checked the path again."]));

describe("a final review that fails validation gets one repair round", () => {
  it("fails once, then succeeds: the corrected review is the result, and the trace shows why", async () => {
    const failed = bad();
    const { result, requests } = await runScriptedReview([{ body: failed }, { body: good() }]);
    expect(result.termination_reason).toBe("final_review");
    expect(result.review?.notes).toEqual(["Checked the path again."]);
    expect(result.repair).toEqual({ failed_round: 1, failures: [MISSING], outcome: "repaired" });
    expect(result.validation_failures).toBeUndefined();
    expect(result.rounds).toBe(2);
    expect(result.trace?.map((t) => [t.round, t.protocol_action, t.validation_failures])).toEqual([
      [1, "request_repair", [MISSING]],
      [2, "final_review", undefined],
    ]);
    // The repair request: the history, the failed answer exactly as received, then the checks.
    const first = bodyAt(requests, 0);
    const repair = bodyAt(requests, 1);
    expect(repair.tool_choice).toBe("none");
    expect(repair.tools).toHaveLength(4);
    expect(repair.messages.slice(0, 2)).toEqual(first.messages);
    expect(repair.messages[2]).toEqual((failed.choices as [{ message: unknown }])[0].message);
    expect(repair.messages[3]?.role).toBe("user");
    expect(repair.messages[3]?.content).toContain(`- ${MISSING}`);
    expect(repair.messages[3]?.content).toContain("Do not call any tool");
    expect(repair.messages).toHaveLength(4);
  });

  it("takes prose evidence as the protocol does: final_review on the first stop turn, no repair round", async () => {
    const prose = stopTurn(review([finding({ evidence: "save runs before validate." })]));
    const { result, requests } = await runScriptedReview([{ body: prose }]);
    expect(result.termination_reason).toBe("final_review");
    expect(result.repair).toBeUndefined();
    expect(requests).toHaveLength(1);
    expect(result.review?.findings[0]?.evidence).toBe("save runs before validate.");
  });

  it("takes evidence copied with the read tool's line numbers, and anywhere in the file for a finding with no line", async () => {
    const numbered = finding({ evidence: "2:   db.write(widget);\n3:   validate(widget);" });
    const unanchored = finding({ line: null, evidence: "validate(widget);" });
    const { result } = await runScriptedReview([{ body: stopTurn(review([numbered, unanchored])) }]);
    expect(result.termination_reason).toBe("final_review");
    expect(result.repair).toBeUndefined();
  });

  it("fails twice: invalid_model_response, listing what was still wrong", async () => {
    const { result, requests } = await runScriptedReview([
      { body: bad() },
      { body: stopTurn(review([finding({ line: 812 })])) },
    ]);
    expect(requests).toHaveLength(2);
    expect(result.termination_reason).toBe("invalid_model_response");
    expect(result.review).toBeNull();
    expect(result.repair).toEqual({ failed_round: 1, failures: [MISSING], outcome: "failed" });
    expect(result.validation_failures).toEqual([PAST_END]);
    expect(result.trace).toBeNull(); // an error: no partial trace, the fields above say it all
  });

  it("an answer to the repair that is not a review keeps the first failures", async () => {
    const { result, tools } = await runScriptedReview([
      { body: bad() },
      { body: toolCallsTurn([{ id: "c1", name: "inspect_git_diff", arguments: {} }]) },
    ]);
    expect(result.termination_reason).toBe("invalid_model_response");
    expect(result.repair?.outcome).toBe("not_a_review");
    expect(result.validation_failures).toEqual([MISSING]);
    expect(tools.executed).toEqual([]);
  });

  it("a repair in a final-answer round ends with the budget's reason when it fails", async () => {
    const calls = toolCallsTurn([{ id: "c1", name: "inspect_git_diff", arguments: {} }]);
    const { result, requests } = await runScriptedReview(
      [{ body: calls }, { body: bad() }, { body: bad() }],
      { limits: { maxToolCalls: 1 } },
    );
    expect(result.termination_reason).toBe("max_tool_calls");
    expect(bodyAt(requests, 2).messages.at(-3)?.content).toContain("Return the final review JSON now");
    expect(result.repair?.outcome).toBe("failed");
    expect(result.validation_failures).toEqual([MISSING]);
  });
});

describe("budgets bound the repair round", () => {
  it("no round left: no repair is sent, the review ends with the budget and lists the checks", async () => {
    const calls = toolCallsTurn([{ id: "c1", name: "inspect_git_diff", arguments: {} }]);
    const { result, requests } = await runScriptedReview([{ body: calls }, { body: bad() }], {
      limits: { maxRounds: 2 },
    });
    expect(requests).toHaveLength(2);
    expect(result.termination_reason).toBe("max_rounds");
    expect(result.repair).toEqual({
      failed_round: 2,
      failures: [MISSING],
      outcome: "not_sent",
      budget: "max_rounds",
    });
    expect(result.validation_failures).toEqual([MISSING]);
    expect(result.trace?.at(-1)).toMatchObject({
      protocol_action: "terminate",
      validation_failures: [MISSING],
    });
  });

  it("no tokens left: no repair is sent", async () => {
    // The failed answer used 220 tokens; the repair would use at least as many: over 400.
    const { result, requests } = await runScriptedReview([{ body: bad() }], { limits: { maxTokens: 400 } });
    expect(requests).toHaveLength(1);
    expect(result.termination_reason).toBe("invalid_model_response");
    expect(result.repair).toMatchObject({ outcome: "not_sent", budget: "token_budget" });
    expect(result.validation_failures).toEqual([MISSING]);
  });

  it("time runs out during the repair: review_timeout, the repair marked interrupted", async () => {
    const { result, requests, elapsed, limits } = await runScriptedReview(
      [{ body: bad() }, { fault: "delay", ms: 5000, next: { body: good() } }],
      { limits: { timeoutMs: 1500 } },
    );
    expect(requests).toHaveLength(2);
    expect(result.termination_reason).toBe("review_timeout");
    expect(result.repair).toEqual({ failed_round: 1, failures: [MISSING], outcome: "interrupted" });
    expect(elapsed).toBeLessThan(limits.timeoutMs * 3);
    expect(result.trace?.map((t) => t.protocol_action)).toEqual(["request_repair"]);
  });

  it("the provider fails during the repair: its reason, the repair marked interrupted", async () => {
    const { result } = await runScriptedReview([{ body: bad() }, { fault: "html_502" }]);
    expect(result.termination_reason).toBe("provider_unavailable");
    expect(result.repair?.outcome).toBe("interrupted");
    expect(result.provider_failure).toMatchObject({ status: 502 });
  });
});
