// The cost of reviewing a large change in passes: `loupe review` (the same pipeline as the App) on
// a 2,000-file change, against the same command on a change of only its first 300 files — what a
// single loop could list. The model is a local stand-in over real HTTP: in each loop it asks for
// the diff of the directories it was given (inspect_git_diff, run for real on the workspace), then
// answers a final review; it bills prompt tokens as request bytes / 4, so a larger prompt or tool
// result costs more, as at a real provider. Counted: model requests, tokens, wall time.
// Run: node_modules/.bin/node bench/passes-cost.ts [runs, default 3]
// BENCH_MODEL_DELAY_MS: how long the stand-in model takes to answer (default 0: Loupe's own time).

import { execFile } from "node:child_process";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createRepo } from "../test/support/git-fixture.ts";

const RUNS = Number(process.argv[2] ?? 3);
const DIRECTORIES = 40;
const FILES_PER_DIRECTORY = 50;
const LINES = 40;
const DELAY_MS = Number(process.env.BENCH_MODEL_DELAY_MS ?? 0);
const root = path.resolve(import.meta.dirname, "..");

const pathOf = (d: number, f: number) =>
  `pkg${String(d).padStart(2, "0")}/file${String(f).padStart(2, "0")}.ts`;
const body = (d: number, f: number, edit: number) =>
  Array.from({ length: LINES }, (_, i) => `export const v${i} = ${i % 13 === 0 ? d + f + edit : i};`).join(
    "\n",
  );

/** main: 2,000 files; `all` changes three lines of each; `first300` only of the first 300 by name. */
function fixture() {
  const repo = createRepo();
  const each = (write: (d: number, f: number, n: number) => void) => {
    let n = 0;
    for (let d = 0; d < DIRECTORIES; d++) for (let f = 0; f < FILES_PER_DIRECTORY; f++) write(d, f, n++);
  };
  each((d, f) => repo.write(pathOf(d, f), body(d, f, 0)));
  repo.commit("base");
  repo.branch("all", "main");
  each((d, f) => repo.write(pathOf(d, f), body(d, f, 1)));
  repo.commit("change 2,000 files");
  repo.checkout("main");
  repo.branch("first300", "main");
  each((d, f, n) => n < 300 && repo.write(pathOf(d, f), body(d, f, 1)));
  repo.commit("change 300 files");
  repo.checkout("main");
  return repo;
}

interface Counts {
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function answer(text: string): unknown {
  const request = JSON.parse(text) as { messages: { role: string; content: string | null }[] };
  const user = request.messages.find((m) => m.role === "user")?.content ?? "";
  const listed = [...user.matchAll(/"path":"([^"]+)"/g)].map((m) => m[1]!);
  const usage = { prompt_tokens: Math.ceil(text.length / 4), completion_tokens: 60 };
  const usageOf = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
  if (!request.messages.some((m) => m.role === "tool")) {
    const directories = [...new Set(listed.map((p) => p.slice(0, p.lastIndexOf("/"))))].slice(0, 50);
    const call = {
      id: "call_diff",
      type: "function",
      function: {
        name: "inspect_git_diff",
        arguments: JSON.stringify({ paths: directories, max_bytes: 131072 }),
      },
    };
    const message = { role: "assistant", content: null, tool_calls: [call] };
    return {
      id: "r1",
      model: "bench",
      choices: [{ index: 0, finish_reason: "tool_calls", message }],
      usage: usageOf,
    };
  }
  const finding = {
    severity: "low",
    title: `Constant changed in ${listed[0]}`,
    explanation: "e",
    path: listed[0],
    line: 1,
    evidence: "export const v0",
    recommendation: "r",
  };
  const review = { summary: "Checked.", findings: [finding], notes: [] };
  const message = { role: "assistant", content: JSON.stringify(review) };
  return {
    id: "r2",
    model: "bench",
    choices: [{ index: 0, finish_reason: "stop", message }],
    usage: usageOf,
  };
}

async function startModel(counts: Counts) {
  const server = createServer((request, response) => {
    void readBody(request).then(async (text) => {
      await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
      const out = answer(text) as { usage: { prompt_tokens: number; completion_tokens: number } };
      counts.requests++;
      counts.promptTokens += out.usage.prompt_tokens;
      counts.completionTokens += out.usage.completion_tokens;
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

async function review(dir: string, head: string, baseURL: string) {
  const started = performance.now();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(root, "src/cli.ts"), "review", "--repo", dir, "--base", "main", "--head", head, "--no-trace"],
    {
      env: {
        ...process.env,
        OPENAI_BASE_URL: baseURL,
        OPENAI_API_KEY: "bench",
        REVIEW_MODEL: "bench",
        // The passes alone: the stand-in model answers reviews, not verifications.
        REVIEW_VERIFY: "off",
      },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const out = JSON.parse(stdout) as { termination_reason: string; files_reviewed: number };
  return { wallMs: performance.now() - started, ...out };
}

const repo = fixture();
try {
  console.log(`machine: ${os.cpus()[0]?.model ?? "unknown"} ×${os.cpus().length}, node ${process.version}`);
  for (let run = 1; run <= RUNS; run++) {
    for (const head of ["first300", "all"]) {
      const counts: Counts = { requests: 0, promptTokens: 0, completionTokens: 0 };
      const model = await startModel(counts);
      const r = await review(repo.dir, head, model.url);
      model.server.close();
      console.log(
        `run ${run} ${head.padEnd(8)} ${r.termination_reason} files reviewed ${r.files_reviewed}: ` +
          `${counts.requests} requests, ${counts.promptTokens} prompt + ${counts.completionTokens} completion tokens, ` +
          `${(r.wallMs / 1000).toFixed(2)} s`,
      );
    }
  }
} finally {
  repo.dispose();
}
