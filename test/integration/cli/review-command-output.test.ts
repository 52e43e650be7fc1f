// What `loupe review` tells a person: progress on stderr when it is a terminal, what to check when
// the provider hangs or answers a web page, the path a failed finding named, Markdown without
// Loupe's hidden markers, JSON in one naming style, and an empty change called empty.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { main } from "../../../src/cli.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { runLoupe } from "../../support/loupe-cli.ts";
import { type ScriptedTurn, startScriptedProvider } from "../../support/scripted-provider.ts";

let repo: FixtureRepo;
let base: string;
let head: string;
let deleted: string;

beforeAll(() => {
  repo = createRepo();
  repo.write("src/service.ts", "export function save(w) {\n  db.write(w);\n}\n");
  base = repo.commit("base");
  repo.write("src/service.ts", "export function save(w) {\n  db.write(w);\n  validate(w);\n}\n");
  head = repo.commit("validate after write");
  repo.remove("src/service.ts");
  deleted = repo.commit("remove the service");
});
afterAll(() => repo.dispose());

async function loupe(args: string[], script: ScriptedTurn[], env: Record<string, string> = {}) {
  const server = await startScriptedProvider(script);
  try {
    return await runLoupe(["review", "--repo", repo.dir, ...args], {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: "sk-x",
      REVIEW_MODEL: "deepseek-v4-flash",
      ...env,
    }).then((run) => ({ ...run, host: new URL(server.baseURL).host }));
  } finally {
    await server.stop();
  }
}

const goodReview = () => stopTurn(review([finding({ path: "src/service.ts", line: 3 })], ["Read the diff."]));

describe("loupe review tells a person what happened", () => {
  it("names the provider's host and how long it was silent when it never answers", async () => {
    const run = await loupe(["--base", base, "--head", head, "--format", "markdown"], [{ fault: "hang" }], {
      REVIEW_TIMEOUT_MS: "2000",
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("`review_timeout`");
    expect(run.stdout).toContain(`What to check: The provider at \`${run.host}\` sent no answer in 2 s`);
  });

  it("says what to check when the provider answers HTTP 200 with an HTML page", async () => {
    const page = { status: 200, headers: { "content-type": "text/html" }, rawBody: "<html>Sign in</html>" };
    const run = await loupe(["--base", base, "--head", head], [page]);
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout);
    expect(json.termination_reason).toBe("invalid_model_response");
    expect(json.provider_failure).toEqual({ host: run.host, status: 200, answer: "html" });
    expect(run.stdout).not.toContain("Sign in");
    const md = await loupe(["--base", base, "--head", head, "--format", "markdown"], [page]);
    expect(md.stdout).toContain("answered HTTP 200 with an HTML page");
    expect(md.stdout).toContain("`OPENAI_BASE_URL` is the API root");
  });

  it("names the path the model gave when a finding's file does not exist", async () => {
    const gone = stopTurn(review([finding({ path: "src/gone.ts" })]));
    const run = await loupe(
      ["--base", base, "--head", head, "--format", "markdown"],
      [{ body: gone }, { body: gone }],
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('`findings[0].path: no such file in the head commit (got "src/gone.ts")`');
  });

  it("prints Markdown without Loupe's hidden markers, and JSON in snake_case only", async () => {
    const md = await loupe(
      ["--base", base, "--head", head, "--format", "markdown"],
      [{ body: goodReview() }],
    );
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("### `src/service.ts:3`");
    expect(md.stdout).not.toContain("<!--");
    const run = await loupe(["--base", base, "--head", head], [{ body: goodReview() }]);
    const json = JSON.parse(run.stdout);
    expect(json.plan.body).toContain("<!-- loupe:"); // what the App would post, exactly
    expect(json).toMatchObject({ files_reviewed: 1, files_left_out: 0 });
    expect(json.plan).toMatchObject({
      postable: true,
      gate_failed: false,
      findings_by_severity: { high: 1 },
    });
    const keys: string[] = [];
    const walk = (value: unknown, inSeverities: boolean): void => {
      if (Array.isArray(value)) for (const item of value) walk(item, false);
      else if (value !== null && typeof value === "object") {
        for (const [key, inner] of Object.entries(value)) {
          if (!inSeverities) keys.push(key);
          walk(inner, key === "findings_by_severity");
        }
      }
    };
    walk(json, false);
    expect(keys.filter((key) => !/^[a-z0-9]+(?:_[a-z0-9]+)*$/.test(key))).toEqual([]);
  });

  it("calls an empty change empty, and a change that only deletes files that", async () => {
    const empty = await loupe(["--base", head, "--head", head], []);
    expect(empty.code).toBe(0);
    expect(JSON.parse(empty.stdout).skipped.reason).toBe("no_changes");
    const removal = await loupe(["--base", head, "--head", deleted, "--format", "markdown"], []);
    expect(removal.stdout).toContain("The change only deletes files");
  });

  it("shows its progress on stderr when stderr is a terminal, and nothing in a pipe", async () => {
    const turns = [
      { body: toolCallsTurn([{ id: "d1", name: "inspect_git_diff", arguments: {} }]) },
      { body: goodReview() },
    ];
    const server = await startScriptedProvider(turns);
    const err: string[] = [];
    try {
      const code = await main(["review", "--repo", repo.dir, "--base", base, "--head", head], {
        stdout: () => {},
        stderr: (text) => err.push(text),
        env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-x", REVIEW_MODEL: "m-1" },
        stderrIsTerminal: true,
      });
      expect(code).toBe(0);
    } finally {
      await server.stop();
    }
    const host = new URL(server.baseURL).host;
    const lines = err.join("").split("\n");
    expect(lines[0]).toBe(`loupe: reviewing with m-1 at ${host} (time limit 300 s)`);
    expect(lines.slice(1, 3).map((line) => line.replace(/\d+ tokens$/, "N tokens"))).toEqual([
      "loupe: round 1 of at most 8 answered · 1 tool call so far · N tokens",
      "loupe: round 2 of at most 8 answered · 1 tool call so far · N tokens",
    ]);
    expect(lines.slice(3)).toEqual([""]);
    const piped = await loupe(["--base", base, "--head", head], [{ body: goodReview() }]);
    expect(piped.stderr).toBe("");
  });
});
