// The tool loop's own cost per round — validation, dispatch, message building, copying — for
// turns of 8 tool calls, with an in-process provider and a no-op registry so that no network or
// tool time is measured (what they do take is timed and subtracted anyway).
// With `text`, the same calls arrive as marker lines in the answer's text (REVIEW_TOOL_CALLS=text)
// beside 4 KiB of prose and a fenced block, so the scanner and the results message are measured.
// Run: node_modules/.bin/node bench/loop-overhead.ts [native|text]

import os from "node:os";
import { DEFAULT_REVIEW_LIMITS, HARD_CAPS } from "../src/config/review-limits.ts";
import { runReviewLoop } from "../src/llm/loop.ts";
import type { ChatProvider } from "../src/llm/provider.ts";
import { TOOL_SCHEMAS } from "../src/tools/registry.ts";
import type { ToolRegistry } from "../src/tools/types.ts";
import { memoryView } from "../test/support/fake-tools.ts";

const MODE = process.argv[2] === "text" ? "text" : "native";
const CALLS_PER_ROUND = 8;
const PROSE = `${"The change moves validation after the write; checking the callers next. ".repeat(56)}\n\n\`\`\`ts\n${"db.write(widget);\n".repeat(20)}\`\`\`\n`;
const ROUNDS = 32;
const REVIEWS = 40;
const RESULT = JSON.stringify({
  ok: true,
  path: "src/a.ts",
  content: "1: x\n".repeat(800),
  truncated: false,
});

let outside = 0; // provider + tool time, subtracted from the loop's wall time
const timed = async <T>(work: () => Promise<T> | T): Promise<T> => {
  const started = performance.now();
  try {
    return await work();
  } finally {
    outside += performance.now() - started;
  }
};

function textTurn(review: number, round: number): unknown {
  const markers = Array.from(
    { length: CALLS_PER_ROUND },
    (_, index) =>
      `<<<LOUPE_CALL name="read_repository_file" id="call_${review}_${round}_${index}">${JSON.stringify({ path: "src/a.ts", start_line: 1 })}>>>`,
  );
  return {
    id: `r${round}`,
    model: "bench",
    choices: [
      {
        index: 0,
        finish_reason: "stop",
        message: { role: "assistant", content: `${PROSE}\n${markers.join("\n")}` },
      },
    ],
    usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 },
  };
}

function turn(review: number, round: number): unknown {
  if (MODE === "text") return textTurn(review, round);
  const calls = Array.from({ length: CALLS_PER_ROUND }, (_, index) => ({
    id: `call_${review}_${round}_${index}`,
    type: "function",
    function: {
      name: "read_repository_file",
      arguments: JSON.stringify({ path: "src/a.ts", start_line: 1 }),
    },
    extra_content: { google: { thought_signature: "c2lnbmF0dXJl".repeat(20) } },
  }));
  return {
    id: `r${round}`,
    model: "bench",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: { role: "assistant", content: null, tool_calls: calls },
      },
    ],
    usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 },
  };
}

const registry: ToolRegistry = {
  schemas: TOOL_SCHEMAS,
  isToolName: (name): name is "read_repository_file" => name === "read_repository_file",
  parseArguments: (_name, raw) => ({ ok: true, args: raw }),
  execute: (_name, _args) => timed(() => ({ result: { ok: true }, content: RESULT, durationMs: 0 })),
};

async function oneReview(review: number): Promise<{ wallMs: number; rounds: number }> {
  let round = 0;
  const provider: ChatProvider = {
    complete: () => timed(() => ({ kind: "response" as const, body: turn(review, ++round) })),
  };
  outside = 0;
  const started = performance.now();
  const result = await runReviewLoop({
    provider,
    tools: registry,
    view: memoryView({ "src/a.ts": "x\n" }),
    model: "bench",
    prompt: {
      repository: "o/r",
      pullRequest: null,
      baseSha: "a",
      headSha: "b",
      changedFiles: [{ path: "src/a.ts", status: "modified" }],
    },
    limits: {
      ...DEFAULT_REVIEW_LIMITS,
      maxRounds: ROUNDS,
      maxToolCalls: HARD_CAPS.maxToolCalls,
      maxTokens: HARD_CAPS.maxTokens,
      maxToolContentBytes: HARD_CAPS.maxToolContentBytes,
    },
    includeTrace: true,
    toolCalls: MODE,
  });
  return { wallMs: performance.now() - started - outside, rounds: result.rounds };
}

const perRound: number[] = [];
for (let review = 0; review < REVIEWS; review++) {
  const { wallMs, rounds } = await oneReview(review);
  if (review >= 5) perRound.push(wallMs / rounds); // the first reviews warm the JIT up
}
perRound.sort((a, b) => a - b);
const at = (q: number): string =>
  (perRound[Math.min(perRound.length - 1, Math.floor(q * perRound.length))] ?? 0).toFixed(3);
console.log(`machine: ${os.cpus()[0]?.model ?? "unknown"} ×${os.cpus().length}, node ${process.version}`);
console.log(
  `${MODE} calls: turns of ${CALLS_PER_ROUND} calls, ${ROUNDS} rounds per review, ${perRound.length} measured reviews`,
);
console.log(`loop overhead per round (ms): median ${at(0.5)}, p95 ${at(0.95)}, max ${at(1)} (target ≤ 10)`);
