// The protocol's worked example (shared/seeds/000: "Full two-round transcript") as a conformance
// test, twice: through Loupe's App as a real server process with default settings, the model
// answering the example's two calls and then its final review verbatim — prose evidence and all —
// and the shared conformance script replayed against `loupe review`. Both must end final_review on
// the first stop turn with the example's finding published, and no repair round.

import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { createRepo } from "../../support/git-fixture.ts";
import { reviewThroughServer } from "../../support/server-review.ts";
import { type ServerWorld, startServerWorld } from "../../support/server-world.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const CONFORMANCE = path.resolve(ROOT, "../shared/conformance/seed-000-example.mjs");

/** The example's final review, byte for byte as the protocol prints it. */
const FINAL =
  '{"summary":"Validation occurs after persistence.","findings":[{"severity":"high","title":"Validation occurs after the write","explanation":"Invalid state can be saved.","path":"src/widgets/service.py","line":42,"evidence":"save executes before validate_name.","recommendation":"Validate before save."}],"notes":["Inspected source and call sites."]}';

const header = Array.from({ length: 40 }, (_, i) => `# line ${i + 1}`).join("\n");
const service = (body: string) => `${header}\ndef create(widget):\n${body}\n    return widget\n`;

let world: ServerWorld;

beforeAll(async () => {
  world = await startServerWorld({
    name: "protocol-example",
    repo: "widget",
    fixture: () => {
      const repo = createRepo();
      repo.write("src/widgets/service.py", service("    validate_name(widget.name)\n    save(widget)"));
      repo.write(
        "src/widgets/validation.py",
        "def validate_name(name):\n    if not name:\n        raise ValueError(name)\n",
      );
      repo.commit("base");
      repo.branch("save-first", "main");
      repo.write("src/widgets/service.py", service("    save(widget)\n    validate_name(widget.name)"));
      repo.commit("save first");
      repo.checkout("main");
      return repo;
    },
    script: [
      {
        body: toolCallsTurn([
          {
            id: "call_read_service",
            name: "read_repository_file",
            arguments: { path: "src/widgets/service.py", start_line: 1, end_line: 180 },
          },
          {
            id: "call_search_validate",
            name: "search_repository",
            arguments: { query: "validate_name", path: "src", limit: 20 },
          },
        ]),
      },
      { body: stopTurn(FINAL) },
      {
        when: "Validation occurs after the write",
        turn: {
          body: stopTurn({
            verdict: "confirmed",
            reason: "save runs on line 42, validation on 43.",
            quote: null,
          }),
        },
      },
    ],
    unset: ["REVIEW_VERIFY"],
  });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

it("ends final_review on the first stop turn and posts the example's finding, through the App", async () => {
  const { github, loupe, secret, provider } = world;
  const run = await reviewThroughServer({
    github,
    loupe,
    secret,
    repo: "widget",
    number: 7,
    headRef: "save-first",
  });
  const done = run.history.at(-1)!;
  expect(done.output?.summary).toContain("**Stopped:** `final_review`");
  expect(done.output?.summary).not.toContain("repair");
  // The example's two rounds, then the verification: no repair request.
  expect(provider.requests).toHaveLength(3);
  const posted = github.reviews.filter((r) => r.repo === "widget");
  expect(posted).toHaveLength(1);
  expect(posted[0]!.comments.map((c) => [c.path, c.line])).toEqual([["src/widgets/service.py", 42]]);
  expect(posted[0]!.comments[0]!.body).toContain("save executes before validate_name.");
});

it("passes the shared conformance script against `loupe review`", async () => {
  expect(fs.existsSync(CONFORMANCE) ? "present" : `missing: ${CONFORMANCE}`).toBe("present");
  const out = await new Promise<string>((resolve) => {
    execFile(
      path.join(ROOT, "node_modules/.bin/node"),
      [CONFORMANCE],
      { cwd: ROOT },
      (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
    );
  });
  expect(out).toContain("seed-000-example: PASS");
}, 120_000);
