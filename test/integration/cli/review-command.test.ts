import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { bodyAt } from "../../support/loop-harness.ts";
import { type LoupeRunOptions, runLoupe } from "../../support/loupe-cli.ts";
import {
  type ScriptedProviderOptions,
  type ScriptedTurn,
  startScriptedProvider,
} from "../../support/scripted-provider.ts";

const API_KEY = "sk-cli-test-0123456789abcdefghij";

let repo: FixtureRepo;
let base: string;
let head: string;
let renamed: string;

beforeAll(() => {
  repo = createRepo();
  repo.write("src/service.ts", "export function save(w) {\n  db.write(w);\n}\n");
  base = repo.commit("base");
  repo.write("src/service.ts", "export function save(w) {\n  db.write(w);\n  validate(w);\n}\n");
  head = repo.commit("validate after write");
  repo.remove("src/service.ts");
  repo.write("lib/service.ts", "export function save(w) {\n  db.write(w);\n  validate(w);\n  log(w);\n}\n");
  renamed = repo.commit("move the service and log");
});
afterAll(() => repo.dispose());

async function loupe(
  args: string[],
  script: ScriptedTurn[],
  env: Record<string, string> = {},
  provider: ScriptedProviderOptions = {},
  options: LoupeRunOptions = {},
) {
  const server = await startScriptedProvider(script, provider);
  try {
    const result = await runLoupe(
      ["review", ...args],
      {
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_API_KEY: API_KEY,
        REVIEW_MODEL: "deepseek-v4-flash",
        REVIEW_VERIFY: "off",
        ...env,
      },
      options,
    );
    return { ...result, requests: server.requests };
  } finally {
    await server.stop();
  }
}

const goodReview = () => stopTurn(review([finding({ path: "src/service.ts", line: 3 })], ["Read the diff."]));

describe("loupe review against the scripted provider", () => {
  it("exits 0 with the JSON result on a final review, after a real tool round on the real registry", async () => {
    const turn = toolCallsTurn([{ id: "d1", name: "inspect_git_diff", arguments: {} }]);
    const run = await loupe(
      ["--repo", repo.dir, "--base", base, "--head", head],
      [{ body: turn }, { body: goodReview() }],
      {},
      {},
      { asProcess: true },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.termination_reason).toBe("final_review");
    expect(result.review.findings[0]).toMatchObject({ path: "src/service.ts", line: 3 });
    expect(result.trace[0].tool_calls[0]).toMatchObject({ name: "inspect_git_diff", ok: true });
    // Two rounds of 100 + 200 prompt and 10 + 20 completion tokens; no prices set, so no cost is claimed.
    expect(result.spend).toMatchObject({ input_tokens: 300, cached_input_tokens: 0, output_tokens: 30 });
    expect(result.cost).toEqual({ kind: "unpriced" });
    const toolMessage = bodyAt(run.requests, 1).messages[3] as { role: string; content: string } | undefined;
    expect(toolMessage?.role).toBe("tool");
    expect(toolMessage?.content).toContain("validate(w);");
    const user = String(bodyAt(run.requests, 0).messages[1]?.content ?? "");
    // Listed as the App lists GitHub's files: with the changed-line counts.
    expect(user).toContain('[{"path":"src/service.ts","status":"modified","additions":1,"deletions":0}]');
    expect(run.stdout).not.toContain(repo.dir);
    expect(run.stdout).not.toContain(API_KEY);
  });

  it("verifies each finding when REVIEW_VERIFY is on, and leaves a refuted one out of the review", async () => {
    const two = review([
      finding({ path: "src/service.ts", line: 2, title: "The write is not awaited" }),
      finding({
        path: "src/service.ts",
        line: 3,
        severity: "medium",
        title: "Validation occurs after the write",
      }),
    ]);
    // The two verifications run side by side: each answer goes to its finding's.
    const verdict = (title: string, value: string, quote: string | null) => ({
      when: title,
      turn: { body: stopTurn({ verdict: value, reason: `It is ${value}.`, quote }) },
    });
    const run = await loupe(
      ["--repo", repo.dir, "--base", base, "--head", head],
      [
        { body: stopTurn(two) },
        verdict("The write is not awaited", "confirmed", null),
        // A refutation quotes head code other than the flagged line (the claim itself proves nothing).
        verdict("Validation occurs after the write", "refuted", "export function save(w) {\n  db.write(w);"),
      ],
      { REVIEW_VERIFY: "on" },
    );
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.review.findings.map((f: { line: number }) => f.line)).toEqual([2]);
    expect(result.verification).toMatchObject({
      kept: 1,
      refuted: [{ finding: { line: 3 }, quote: "export function save(w) {\n  db.write(w);" }],
      unverified: [],
    });
    expect(run.requests).toHaveLength(3);
    expect(result.rounds).toBe(3);
    expect(result.spend).toMatchObject({ rounds: 3, input_tokens: 600, output_tokens: 60 });
  });

  it("lists a renamed and edited file once, as git diff -M does, and the diff shows only its edit", async () => {
    const turn = toolCallsTurn([{ id: "d1", name: "inspect_git_diff", arguments: {} }]);
    const moved = stopTurn(review([finding({ path: "lib/service.ts", line: 4 })], []));
    const run = await loupe(
      ["--repo", repo.dir, "--base", head, "--head", renamed],
      [{ body: turn }, { body: moved }],
    );
    expect(run.code).toBe(0);
    const [status] = repo.git("diff", "-M", "--name-status", head, renamed).split("\t");
    const user = String(bodyAt(run.requests, 0).messages[1]?.content ?? "");
    expect(user).toContain(
      `[{"path":"lib/service.ts","status":"renamed","previous_path":"src/service.ts","similarity":${Number(status!.slice(1))},"additions":1,"deletions":0}]`,
    );
    const diff = JSON.parse(String(bodyAt(run.requests, 1).messages[3]?.content)).diff;
    expect(diff).toBe(`${repo.git("diff", "-M", head, renamed)}\n`);
    expect(diff).toContain("rename from src/service.ts\nrename to lib/service.ts\n");
    expect(diff).toContain("+  log(w);\n");
    expect(diff).not.toContain("+  db.write(w);");
  });

  it("prints markdown a person can read, and --no-trace gives trace null in JSON", async () => {
    const md = await loupe(
      ["--repo", repo.dir, "--base", base, "--head", head, "--format", "markdown"],
      [{ body: goodReview() }],
    );
    expect(md.code).toBe(0);
    // What the App would post: line 3 was added, so the finding is an inline comment there.
    expect(md.stdout).toContain("## Inline comments the App would post (1)\n\n### `src/service.ts:3`\n");
    expect(md.stdout).toContain("Validation occurs after the write");
    expect(md.stdout).toContain("Findings: 1 inline, 0 in the review body");
    expect(md.stdout).toContain("`final_review`: The model returned a final review that passed validation.");
    const json = await loupe(
      ["--repo", repo.dir, "--base", base, "--head", head, "--no-trace"],
      [{ body: goodReview() }],
    );
    expect(JSON.parse(json.stdout).trace).toBeNull();
  });

  it("exits 1 on any other termination reason, in both formats", async () => {
    const bad = await loupe(
      ["--repo", repo.dir, "--base", base, "--head", head],
      [{ status: 401, body: { error: { message: `no ${API_KEY}` } } }],
      {},
      {},
      { asProcess: true },
    );
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).termination_reason).toBe("provider_authentication_failed");
    expect(bad.stdout + bad.stderr).not.toContain(API_KEY);
    const md = await loupe(
      ["--repo", repo.dir, "--base", base, "--head", head, "--format", "markdown"],
      [{ body: stopTurn("prose") }, { body: stopTurn(review([finding({ path: "src/gone.ts" })])) }],
    );
    expect(md.code).toBe(1);
    expect(md.stdout).toContain("`invalid_model_response`");
    // The exact checks: those the repair request named, and those the corrected answer failed.
    expect(md.stdout).toContain("• `(answer): is not valid JSON;");
    expect(md.stdout).toContain('• `findings[0].path: no such file in the head commit (got "src/gone.ts")`');
  });

  it.each([
    ["a missing --head", ["--repo", "."], {}],
    ["an unknown format", ["--repo", ".", "--base", "a", "--head", "b", "--format", "xml"], {}],
    ["an unknown option", ["--repo", ".", "--base", "a", "--head", "b", "--force"], {}],
    ["a missing API key", ["--repo", ".", "--base", "a", "--head", "b"], { OPENAI_API_KEY: "" }],
    ["an invalid limit", ["--repo", ".", "--base", "a", "--head", "b"], { REVIEW_MAX_ROUNDS: "0" }],
    [
      "an unknown tool-call mode",
      ["--repo", ".", "--base", "a", "--head", "b"],
      { REVIEW_TOOL_CALLS: "json" },
    ],
    ["a revision the repository lacks", ["--base", "no-such-rev", "--head", "HEAD"], {}],
  ])("exits 2 with one line for %s", async (_label, args, env) => {
    const fullArgs = args.includes("--repo") ? args : ["--repo", repo.dir, ...args];
    const run = await loupe(fullArgs, [], env as Record<string, string>);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).not.toContain(repo.dir);
    expect(run.requests).toHaveLength(0);
  });

  it.each([
    ["a directory that does not exist", "no-such-dir", "does not exist"],
    ["a directory that is not a repository", "plain", "is not a git repository"],
  ])("exits 2 naming the --repo path for %s", async (_label, name, why) => {
    const dir = path.join(os.tmpdir(), `loupe-repo-arg-${process.pid}`, name);
    if (name === "plain") fs.mkdirSync(dir, { recursive: true });
    try {
      const run = await loupe(["--repo", dir, "--base", "a", "--head", "b"], []);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split("\n")).toEqual([
        `loupe: --repo ${JSON.stringify(dir)}: the repository directory ${why}${name === "plain" ? " (no .git, and not a bare repository)" : " or is not a directory"}`,
      ]);
      expect(run.requests).toHaveLength(0);
    } finally {
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });

  it("exits 2 listing every problem of its settings, one line each, read by the App's schemas", async () => {
    const args = ["--repo", repo.dir, "--base", base, "--head", head];
    const run = await loupe(args, [], {
      REVIEW_MODEL: "",
      REVIEW_MAX_ROUNDS: "0",
      REVIEW_TOOL_CALLS: "json",
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^loupe: REVIEW_MODEL is required: /),
      expect.stringMatching(/^loupe: REVIEW_TOOL_CALLS="json" is not one of native, text, auto: /),
      expect.stringMatching(/^loupe: REVIEW_MAX_ROUNDS="0" is not an integer from 1 to 32: /),
    ]);
    expect(run.requests).toHaveLength(0);
  });
});

describe("loupe review against a server that refuses tools (HTTP 400, as llama.cpp without a template)", () => {
  const marker = '<<<LOUPE_CALL name="inspect_git_diff" id="d1">{}>>>';
  const args = () => ["--repo", repo.dir, "--base", base, "--head", head];

  it("auto (the default) switches to text markers and ends with the native path's findings", async () => {
    const native = await loupe(args(), [
      { body: toolCallsTurn([{ id: "d1", name: "inspect_git_diff", arguments: {} }]) },
      { body: goodReview() },
    ]);
    const text = await loupe(
      args(),
      [{ body: stopTurn(`First the diff.\n${marker}`) }, { body: goodReview() }],
      {},
      { rejectTools: true },
    );
    expect(text.stderr).toBe("");
    expect(text.code).toBe(0);
    const result = JSON.parse(text.stdout);
    expect(result.review).toEqual(JSON.parse(native.stdout).review);
    expect(result.tool_call_transport).toBe("text");
    expect(result.tool_call_switch).toEqual({ round: 1, cause: "provider_rejected_tools" });
    expect(result.trace[0].protocol_action).toBe("switch_to_text_tool_calls");
    expect(result.trace[1].tool_calls[0]).toMatchObject({ id: "d1", name: "inspect_git_diff", ok: true });
    expect(text.requests.map((r) => "tools" in (r.body as object))).toEqual([true, false, false]);
    expect(String(bodyAt(text.requests, 2).messages.at(-1)?.content)).toContain("validate(w);");
    expect(text.stdout).not.toContain("LOUPE_CALL");
    expect(text.stdout).not.toContain("First the diff");

    const md = await loupe(
      [...args(), "--format", "markdown"],
      [{ body: stopTurn(marker) }, { body: goodReview() }],
      {},
      { rejectTools: true },
    );
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("so from round 1 Loupe asked for calls written as text markers");
    expect(md.stdout).not.toContain("LOUPE_CALL");
  });

  it("REVIEW_TOOL_CALLS=text never sends tools; =native ends provider_request_rejected on the refusal", async () => {
    const text = await loupe(
      args(),
      [{ body: stopTurn(marker) }, { body: goodReview() }],
      { REVIEW_TOOL_CALLS: "text" },
      { rejectTools: true },
    );
    expect(text.code).toBe(0);
    expect(text.requests.map((r) => "tools" in (r.body as object))).toEqual([false, false]);
    expect(JSON.parse(text.stdout).tool_call_switch).toBeUndefined();
    const native = await loupe(args(), [], { REVIEW_TOOL_CALLS: "native" }, { rejectTools: true });
    expect(native.code).toBe(1);
    expect(JSON.parse(native.stdout).termination_reason).toBe("provider_request_rejected");
    expect(native.requests).toHaveLength(1);
  });
});
