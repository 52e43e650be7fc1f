// The realistic model of the end-to-end world answers as the models people use do, and Loupe
// accepts what it answers: over many seeds its final reviews are untidy in every way the issue
// lists (fenced JSON, prose evidence, `Line N:`, numbered lines, reworded titles, `./` paths), and
// every one of them passes the protocol's validation of a final review with its paths made canonical.

import { describe, expect, it } from "@jest/globals";
import * as v from "valibot";
import { headFileCheck, validateFinalReview } from "../../../src/llm/final-review.ts";
import { FindingVerdictSchema } from "../../../src/llm/verify-schema.ts";
import { memoryRepository } from "../../support/memory-repository.ts";
import { type KnownFinding, realisticResponder, requestKind } from "../../support/realistic-model.ts";
import type { RecordedRequest, ScriptedTurn } from "../../support/scripted-provider.ts";

const HEAD = "export function save(db, record) {\n  db.write(record);\n  validate(record);\n}\n";
const KNOWN: KnownFinding = {
  path: "src/service.ts",
  line: 2,
  end_line: 3,
  severity: "high",
  titles: ["Validation runs after the write", "Record is persisted before it is validated"],
  code: "  db.write(record);\n  validate(record);",
};
const REVIEWER = "You are Loupe, a careful code reviewer of one pull request.\n\nRules.";
const VERIFIER = "You are Loupe's verifier. A reviewer proposed the finding below.";

function request(body: Record<string, unknown>): RecordedRequest {
  const bodyText = JSON.stringify(body);
  const times = { arrivedAt: 0, answeredAt: null, inFlightOnArrival: 1 };
  return { method: "POST", url: "/v1/chat/completions", headers: {}, bodyText, body, ...times };
}

function messages(system: string, user: string, tools: number) {
  const tool = { role: "tool", tool_call_id: "c", content: "{}" };
  return [{ role: "system", content: system }, { role: "user", content: user }, ...Array(tools).fill(tool)];
}

function message(turn: ScriptedTurn | undefined): Record<string, unknown> {
  if (turn === undefined || !("body" in turn)) throw new Error("no answer");
  return (turn.body as { choices: { message: Record<string, unknown> }[] }).choices[0]!.message;
}

const user = 'Changed files (1): [{"path":"src/service.ts","status":"modified"}]';

describe("as reviewer", () => {
  it("reads the diff first, then answers", () => {
    const answer = realisticResponder({ findings: [KNOWN] });
    const first = message(answer(request({ messages: messages(REVIEWER, user, 0), tools: [{}] })));
    expect((first.tool_calls as { function: { name: string } }[])[0]!.function.name).toBe("inspect_git_diff");
    const last = message(answer(request({ messages: messages(REVIEWER, user, 2), tools: [{}] })));
    expect(typeof last.content).toBe("string");
  });

  it("answers untidily over seeds, and every answer passes Loupe's validation", async () => {
    const check = headFileCheck(memoryRepository({ head: { "src/service.ts": Buffer.from(HEAD) } }));
    const seen = { fenced: 0, dotted: 0, titles: new Set<string>(), evidence: new Set<string>() };
    for (let seed = 1; seed <= 40; seed++) {
      const answer = realisticResponder({ findings: [KNOWN], seed });
      const body = { messages: messages(REVIEWER, user, 1), tools: [{}], tool_choice: "none" };
      const content = String(message(answer(request(body))).content);
      if (content.startsWith("```json\n")) seen.fenced++;
      if (content.includes('"./src/service.ts"')) seen.dotted++;
      const verdict = await validateFinalReview(content, check);
      if (!verdict.ok) throw new Error(`seed ${seed}: ${verdict.failures.join("; ")}`);
      const [finding] = verdict.review.findings;
      expect(finding?.path).toBe("src/service.ts");
      seen.titles.add(finding!.title);
      const evidence = finding!.evidence;
      seen.evidence.add(
        /^Line \d+ reads:/.test(evidence)
          ? "reads"
          : /^Line \d+:/.test(evidence)
            ? "line"
            : /^\d+: /.test(evidence)
              ? "numbered"
              : evidence.includes("`")
                ? "backticks"
                : "prose",
      );
    }
    expect(seen.fenced).toBeGreaterThan(0);
    expect(seen.fenced).toBeLessThan(40);
    expect(seen.dotted).toBeGreaterThan(0);
    expect(seen.titles.size).toBe(2);
    expect([...seen.evidence].sort()).toEqual(["backticks", "line", "numbered", "reads"]);
  });

  it("reports only what it knows about the files it was shown", async () => {
    const answer = realisticResponder({ findings: [KNOWN] });
    const other = 'Changed files (1): [{"path":"docs/a.md","status":"modified"}]';
    const body = { messages: messages(REVIEWER, other, 1), tools: [{}], tool_choice: "none" };
    const content = String(message(answer(request(body))).content);
    expect(content).not.toContain("service.ts");
  });
});

describe("as verifier", () => {
  it("reads the file, then answers a verdict Loupe's schema accepts, sometimes fenced", () => {
    const anchored = 'The finding to verify is anchored on "src/service.ts", lines 2-3.';
    const verdicts = new Set<string>();
    let fenced = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const answer = realisticResponder({ findings: [KNOWN], seed });
      const read = message(answer(request({ messages: messages(VERIFIER, anchored, 0), tools: [{}] })));
      expect((read.tool_calls as { function: { name: string } }[])[0]!.function.name).toBe(
        "read_repository_file",
      );
      const done = request({ messages: messages(VERIFIER, anchored, 1), tools: [{}] });
      expect(requestKind(done)).toBe("verify");
      const content = String(message(answer(done)).content);
      const json = content.startsWith("```json\n") ? content.slice(8, -4) : content;
      if (json !== content) fenced++;
      const parsed = v.parse(FindingVerdictSchema, JSON.parse(json));
      verdicts.add(parsed.verdict);
    }
    expect([...verdicts].sort()).toEqual(["confirmed", "plausible"]);
    expect(fenced).toBeGreaterThan(0);
  });

  it("does not answer a request it does not model", () => {
    const answer = realisticResponder({ findings: [KNOWN] });
    const reply = request({ messages: messages("You are Loupe, a careful code reviewer. Earlier", user, 0) });
    expect(answer(reply)).toBeUndefined();
    expect(requestKind(reply)).toBe("other");
  });
});
