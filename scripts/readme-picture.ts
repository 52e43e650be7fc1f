// The README's picture: a review and a check run as GitHub renders them, made from Loupe's real
// output so it stays true. A small repository with a real bug is reviewed by `loupe review` itself
// (the model is the tests' scripted provider, so the picture is the same every time); the review
// body, the inline comment and the check run's output are rendered by cmark-gfm with GitHub's
// extensions, styled by GitHub's own stylesheet (the github-markdown-css package), and
// photographed by headless Chromium (an emoji font, e.g. Debian's fonts-noto-color-emoji, shows
// the severity marks). Run: `node scripts/readme-picture.ts [out.png]`
// (default docs/readme-review.png).

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { runReviewCommand } from "../src/cli/review-command.ts";
import { GITHUB_WORDS } from "../src/forges/github/words.ts";
import { conclusionFor } from "../src/jobs/conclusion.ts";
import { renderCheckRunOutput } from "../src/report/check-run-output.ts";
import { finding, stopTurn, toolCallsTurn } from "../test/support/chat-turns.ts";
import { requireProgram } from "../test/support/programs.ts";
import { startScriptedProvider } from "../test/support/scripted-provider.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** GitHub's own Markdown: cmark-gfm with the extensions github.com enables, raw HTML filtered. */
const CMARK_ARGS = [
  "-e",
  "table",
  "-e",
  "strikethrough",
  "-e",
  "autolink",
  "-e",
  "tagfilter",
  "-e",
  "tasklist",
];

/** The duration the picture's check run shows, fixed so every run makes the same picture. */
const PICTURE_DURATION_MS = 42_000;

const BASE = `export async function refund(order: Order, amount: number): Promise<void> {
  if (amount <= 0) throw new RangeError("nothing to refund");
  await ledger.credit(order.customer, amount);
}
`;
const HEAD = `export async function refund(order: Order, amount: number): Promise<void> {
  if (amount <= 0) throw new RangeError("nothing to refund");
  await ledger.credit(order.customer, amount);
  await orders.markRefunded(order.id);
}
`;

const FINDING = finding({
  severity: "high",
  title: "A partial refund marks the whole order refunded",
  explanation:
    "`refund` credits `amount`, which may be less than the order's total, and then calls `markRefunded(order.id)` unconditionally. After a partial refund the order reads as fully refunded, so the rest can never be refunded and reports overstate refunds.",
  path: "src/payments.ts",
  line: 4,
  evidence: "await orders.markRefunded(order.id);",
  recommendation:
    "Mark the order refunded only when the refunds reach its total, e.g. `markRefunded` after comparing the ledger's sum with `order.total`.",
});

/** A repository whose head adds the line the finding is about. */
function fixtureRepository(): { dir: string; base: string; head: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-picture-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Ada", "-c", "user.email=ada@example.com", ...args], {
      cwd: dir,
      encoding: "utf8",
      // Fixed dates: the same commits, so the same head SHA in every picture.
      env: {
        ...process.env,
        GIT_AUTHOR_DATE: "2025-01-01T12:00:00Z",
        GIT_COMMITTER_DATE: "2025-01-01T12:00:00Z",
      },
    }).trim();
  git("init", "-q", "-b", "main");
  fs.mkdirSync(path.join(dir, "src"));
  fs.writeFileSync(path.join(dir, "src/payments.ts"), BASE);
  git("add", ".");
  git("commit", "-q", "-m", "refunds");
  const base = git("rev-parse", "HEAD");
  fs.writeFileSync(path.join(dir, "src/payments.ts"), HEAD);
  git("commit", "-q", "-am", "mark refunded orders");
  return { dir, base, head: git("rev-parse", "HEAD") };
}

/** `loupe review --format json` on the fixture, the model scripted: Loupe's own output. */
async function reviewJson(): Promise<{ json: Record<string, unknown>; head: string }> {
  const repo = fixtureRepository();
  const model = await startScriptedProvider([
    {
      body: toolCallsTurn([
        { id: "call_1", name: "search_repository", arguments: { query: "markRefunded" } },
      ]),
    },
    {
      body: stopTurn({
        summary: "The refund path now marks orders refunded, also after a partial refund.",
        findings: [FINDING],
        notes: [],
      }),
    },
  ]);
  let printed = "";
  try {
    const args = ["--repo", repo.dir, "--base", repo.base, "--head", repo.head, "--format", "json"];
    await runReviewCommand(args, {
      stdout: (text) => {
        printed += text;
      },
      stderr: () => {},
      env: {
        PATH: process.env.PATH ?? "",
        OPENAI_BASE_URL: model.baseURL,
        OPENAI_API_KEY: "sk-picture-0123456789abcdef",
        REVIEW_MODEL: "gpt-4.1-mini",
        REVIEW_VERIFY: "off",
        REVIEW_PRICE_INPUT: "0.4",
        REVIEW_PRICE_OUTPUT: "1.6",
      },
    });
  } finally {
    await model.stop();
    fs.rmSync(repo.dir, { recursive: true, force: true });
  }
  return { json: JSON.parse(printed) as Record<string, unknown>, head: repo.head };
}

function cmark(markdown: string): string {
  return execFileSync(requireProgram("cmark-gfm"), CMARK_ARGS, { input: markdown, encoding: "utf8" });
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const FRAME_CSS = `
body { margin: 0; padding: 16px; background: #fff; width: 860px;
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.box { border: 1px solid #d0d7de; border-radius: 6px; margin-bottom: 16px; overflow: hidden; }
.head { background: #f6f8fa; border-bottom: 1px solid #d0d7de; padding: 8px 16px; font-size: 14px; color: #1f2328; }
.bot { border: 1px solid #d0d7de; border-radius: 2em; padding: 0 6px; font-size: 12px; color: #59636e; }
.markdown-body { padding: 12px 16px; font-size: 14px; }
.file { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
.diff { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; border-bottom: 1px solid #d0d7de; }
.diff div { padding: 0 16px; white-space: pre; line-height: 20px; }
.diff .add { background: #dafbe1; }
.thread { margin: 8px 16px 12px; border: 1px solid #d0d7de; border-radius: 6px; }
.check .head strong { font-size: 16px; }
`;

interface Comment {
  readonly path: string;
  readonly line: number;
  readonly body: string;
}

/** The changed lines above the comment, as GitHub shows them above a review thread. */
function diffLines(line: number): string {
  const head = HEAD.split("\n");
  const base = new Set(BASE.split("\n"));
  return head
    .slice(Math.max(0, line - 3), line)
    .map(
      (text) =>
        `<div class="${base.has(text) ? "" : "add"}">${base.has(text) ? " " : "+"} ${escapeHtml(text)}</div>`,
    )
    .join("");
}

function reviewBox(body: string, comments: readonly Comment[]): string {
  const threads = comments.map(
    (
      c,
    ) => `<div class="thread"><div class="head file">${escapeHtml(c.path)}</div><div class="diff">${diffLines(c.line)}</div>
<div class="markdown-body">${cmark(c.body)}</div></div>`,
  );
  return `<div class="box"><div class="head"><strong>loupe</strong> <span class="bot">bot</span> reviewed</div>
<div class="markdown-body">${cmark(body)}</div>${threads.join("")}</div>`;
}

function checkBox(conclusion: string, output: { title: string; summary: string }): string {
  const mark = conclusion === "success" ? "✓" : conclusion === "failure" ? "✗" : "■";
  return `<div class="box check"><div class="head"><strong>${mark} Loupe review</strong> · ${escapeHtml(conclusion)}<br>${escapeHtml(output.title)}</div>
<div class="markdown-body">${cmark(output.summary)}</div></div>`;
}

/** The page: GitHub's Markdown stylesheet, the review, then the check run. */
export async function readmePage(): Promise<string> {
  const { json, head } = await reviewJson();
  const plan = json.plan as {
    body: string;
    comments: Comment[];
    findings_by_severity: Record<string, number>;
    gate_failed: boolean;
  };
  // The App's own rule: a complete review concludes `success`, or `failure` at the fail_on gate.
  const conclusion = conclusionFor(json.termination_reason as never, plan.gate_failed);
  const output = renderCheckRunOutput({
    // A scripted model answers in milliseconds, and a measured duration would change the picture
    // on every run: the duration shown is a fixed, stated figure (see the README's caption).
    result: { ...json, duration_ms: PICTURE_DURATION_MS } as never,
    words: GITHUB_WORDS,
    conclusion,
    findingsBySeverity: plan.findings_by_severity as never,
    filesReviewed: Number(json.files_reviewed),
    filesSkipped: 0,
    headSha: head,
    cost: json.cost as never,
  });
  const css = fs.readFileSync(
    createRequire(import.meta.url).resolve("github-markdown-css/github-markdown-light.css"),
    "utf8",
  );
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}${FRAME_CSS}</style></head>
<body>${reviewBox(plan.body, plan.comments)}${checkBox(conclusion, output)}</body></html>`;
}

/**
 * A fontconfig file that lets Chromium see only DejaVu Sans (which Debian's chromium brings) and
 * the emoji font, with the machine's own rules for them; undefined when fontconfig or DejaVu is
 * missing (the machine's fonts are used). Installing chromium with its recommended packages also
 * brings Liberation, metric twins of the Arial and Helvetica that the stylesheet names first: the
 * same page was then laid out 17 pixels shorter, so the picture depended on the machine.
 */
function pinnedFonts(dir: string): string | undefined {
  let files: string[];
  try {
    files = execFileSync("fc-list", ["-f", "%{file}\n"], { encoding: "utf8" }).split("\n");
  } catch {
    return undefined;
  }
  const chosen = [...new Set(files.filter((file) => /\/(?:DejaVuSans|NotoColorEmoji)[^/]*$/.test(file)))];
  if (!chosen.some((file) => file.endsWith("/DejaVuSans.ttf"))) return undefined;
  const fonts = path.join(dir, "fonts");
  fs.mkdirSync(fonts);
  for (const file of chosen) fs.symlinkSync(file, path.join(fonts, path.basename(file)));
  const config = path.join(dir, "fonts.conf");
  fs.writeFileSync(
    config,
    `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>${fonts}</dir>
  <cachedir>${path.join(dir, "cache")}</cachedir>
  <include ignore_missing="yes">/etc/fonts/conf.d</include>
</fontconfig>
`,
  );
  return config;
}

/** The page photographed by headless Chromium (on PATH, or where CHROMIUM_PATH says), as a PNG. */
export async function readmePicture(out: string): Promise<string> {
  const html = await readmePage();
  const fontDir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-picture-fonts-"));
  try {
    const fontConfig = pinnedFonts(fontDir);
    const browser = await chromium.launch({
      executablePath: requireProgram("chromium"),
      headless: true,
      args: CHROMIUM_FLAGS,
      env: fontConfig === undefined ? process.env : { ...process.env, FONTCONFIG_FILE: fontConfig },
    });
    try {
      const page = await browser.newPage({ viewport: { width: 892, height: 600 }, deviceScaleFactor: 1 });
      await page.setContent(html);
      await page.screenshot({ path: out, fullPage: true });
    } finally {
      await browser.close();
    }
  } finally {
    fs.rmSync(fontDir, { recursive: true, force: true });
  }
  return html;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? path.join(ROOT, "docs/readme-review.png");
  await readmePicture(out);
  process.stdout.write(`${path.relative(process.cwd(), out)}\n`);
}
