// The commands the README and docs give to copy, as a person runs them: through npm in a shell.
// npm prints a two-line banner on standard output before a script unless it is silent, which
// made the README's JSON not JSON and put two non-JSON lines at the top of the production log.

import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { finding, review, stopTurn } from "../support/chat-turns.ts";
import { createRepo, type FixtureRepo } from "../support/git-fixture.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every line of every fenced code block of a Markdown file. */
function codeLines(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  return [...text.matchAll(/^```[a-z]*\n([\s\S]*?)^```/gm)].flatMap((m) => m[1]!.split("\n"));
}

const DOCS = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).map((f) => `docs/${f}`)];

let repo: FixtureRepo;
let base: string;

beforeAll(() => {
  repo = createRepo();
  repo.write("src/service.ts", "export function save(w) {\n  db.write(w);\n}\n");
  base = repo.commit("base");
  repo.write("src/service.ts", "export function save(w) {\n  db.write(w);\n  validate(w);\n}\n");
  repo.commit("validate after write");
});
afterAll(() => repo.dispose());

describe("the documented commands", () => {
  it("lead the Quick start with running the app, say how long the check takes, and install once", () => {
    for (const file of ["README.md", "docs/install.md"]) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      const quick = text.slice(text.indexOf("## Quick start"));
      const [first, second] = codeLines(file).filter(
        (line) => line.startsWith("npm ") && quick.includes(line),
      );
      expect([file, first]).toEqual([file, expect.stringMatching(/^npm ci && npm start -s\b/)]);
      expect([file, second]).toEqual([file, expect.stringMatching(/^npm run check\b.*about 10 minutes/)]);
    }
  });

  it("run npm scripts whose output is read (the CLI, the server's log) silently", () => {
    const loud = DOCS.flatMap((file) =>
      codeLines(file)
        .filter(
          (line) => /\bnpm (?:run loupe|start)\b/.test(line) && !/\bnpm (?:run -s|start -s)\b/.test(line),
        )
        .map((line) => `${file}: ${line}`),
    );
    expect(loud).toEqual([]);
  });

  it("give JSON on standard output for the README's --format json command", async () => {
    const command = codeLines("README.md").find((line) => line.includes("--format json"));
    expect(command).toMatch(/^npm run -s loupe -- review /);
    // The README's own command, on a fixture repository, with stdout kept rather than redirected.
    const shell = command!
      .replace(/ > \S+$/, "")
      .replace("~/src/project", repo.dir)
      .replace("--base main", `--base ${base}`);
    const server = await startScriptedProvider([
      { body: stopTurn(review([finding({ path: "src/service.ts", line: 3 })], ["Read the diff."])) },
    ]);
    try {
      const run = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
        execFile(
          "sh",
          ["-c", shell],
          {
            cwd: ROOT,
            env: {
              PATH: process.env.PATH ?? "",
              HOME: process.env.HOME ?? "",
              OPENAI_BASE_URL: server.baseURL,
              OPENAI_API_KEY: "sk-x",
              REVIEW_MODEL: "deepseek-v4-flash",
            },
          },
          (_error, stdout, stderr) => resolve({ stdout, stderr }),
        );
      });
      const json = JSON.parse(run.stdout) as { termination_reason: string };
      expect(json.termination_reason).toBe("final_review");
    } finally {
      await server.stop();
    }
  });
});
