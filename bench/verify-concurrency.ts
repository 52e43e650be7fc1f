// What verification adds to a review's wall time: `loupe review` (the App's pipeline on the local
// host) on a change whose review has ten findings, with a stand-in model over real HTTP that takes
// BENCH_MODEL_DELAY_MS (default 500) to answer each request, verification on against off, side by
// side. Checked one after another, ten findings would add ten answers' time; four at a time, three.
// Run: node_modules/.bin/node bench/verify-concurrency.ts [runs, default 3]

import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createRepo } from "../test/support/git-fixture.ts";

const RUNS = Number(process.argv[2] ?? 3);
const DELAY_MS = Number(process.env.BENCH_MODEL_DELAY_MS ?? 500);
const FINDINGS = 10;
const root = path.resolve(import.meta.dirname, "..");

function answer(text: string): unknown {
  const request = JSON.parse(text) as { messages: { role: string; content: string | null }[] };
  const system = request.messages[0]?.content ?? "";
  const usage = { prompt_tokens: Math.ceil(text.length / 4), completion_tokens: 60, total_tokens: 0 };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const stop = (content: unknown) => ({
    id: "r",
    model: "bench",
    choices: [
      { index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(content) } },
    ],
    usage,
  });
  if (system.startsWith("You are Loupe's verifier")) {
    return stop({ verdict: "confirmed", reason: "The line does what the finding says.", quote: null });
  }
  const findings = Array.from({ length: FINDINGS }, (_, i) => ({
    severity: "medium",
    title: `Constant ${i} changed without its callers`,
    explanation: "A caller still expects the old value.",
    path: "src/values.ts",
    line: i + 1,
    evidence: `\`export const v${i}\` changed.`,
    recommendation: "Update the callers.",
  }));
  return stop({ summary: "Ten constants changed.", findings, notes: [] });
}

async function startModel() {
  let requests = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests++;
      setTimeout(() => {
        const body = JSON.stringify(answer(Buffer.concat(chunks).toString("utf8")));
        response.writeHead(200, { "content-type": "application/json" }).end(body);
      }, DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, requests: () => requests, close: () => server.close() };
}

const repo = createRepo();
const values = (edit: number) =>
  `${Array.from({ length: FINDINGS }, (_, i) => `export const v${i} = ${i + edit};`).join("\n")}\n`;
repo.write("src/values.ts", values(0));
repo.commit("base");
repo.branch("change", "main");
repo.write("src/values.ts", values(1));
repo.commit("change");
repo.checkout("main");

async function review(verify: "on" | "off") {
  const model = await startModel();
  const started = performance.now();
  await promisify(execFile)(
    process.execPath,
    [path.join(root, "src/cli.ts"), "review", "--repo", repo.dir, "--base", "main", "--head", "change"],
    {
      env: {
        ...process.env,
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: "bench",
        REVIEW_MODEL: "bench",
        REVIEW_VERIFY: verify,
      },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const wallMs = performance.now() - started;
  model.close();
  return { wallMs, requests: model.requests() };
}

try {
  console.log(`machine: ${os.cpus()[0]?.model ?? "unknown"} ×${os.cpus().length}, node ${process.version}`);
  console.log(`model delay ${DELAY_MS} ms, ${FINDINGS} findings`);
  for (let run = 1; run <= RUNS; run++) {
    const off = await review("off");
    const on = await review("on");
    const added = on.wallMs - off.wallMs;
    console.log(
      `run ${run}: off ${(off.wallMs / 1000).toFixed(2)} s (${off.requests} requests), on ${(on.wallMs / 1000).toFixed(2)} s ` +
        `(${on.requests} requests); verification added ${(added / DELAY_MS).toFixed(1)} answers' time for ${FINDINGS} findings`,
    );
  }
} finally {
  repo.dispose();
}
