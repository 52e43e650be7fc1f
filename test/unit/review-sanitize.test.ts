import { describe, expect, it } from "@jest/globals";
import { extractFingerprints } from "../../src/review/fingerprint.ts";
import { splitSegments } from "../../src/review/markdown-segments.ts";
import { hasReviewMarker } from "../../src/review/render.ts";
import { sanitizeMarkdown, TRUNCATION_MARKER } from "../../src/review/sanitize.ts";

const opts = { owner: "acme", repo: "widgets", host: "github.com", maxLength: 10000 };
const clean = (text: string, maxLength = 10000) => sanitizeMarkdown(text, { ...opts, maxLength });

/** The prose GitHub would render from the output (code spans and fences removed). */
function proseOf(markdown: string): string {
  return splitSegments(markdown)
    .filter((s) => s.kind === "prose")
    .map((s) => (s.kind === "prose" ? s.text : ""))
    .join("\n");
}

describe("sanitizeMarkdown", () => {
  it.each([
    ["a user mention", "ping @octocat now", "ping ＠octocat now"],
    ["a team mention", "cc @acme/security", "cc ＠acme/security"],
    ["an issue reference", "fixes #123", "fixes ＃123"],
    ["a GH- reference", "see GH-42 and gh-7", "see GH‑42 and gh‑7"],
    ["a cross-repository reference", "like other/repo#1", "like other/repo＃1"],
    ["an entity that spells @", "&#64;admin", "&amp;＃64;admin"],
    ["raw HTML", "<details><summary>s</summary>x</details>", "sx"],
    ["an image tag and a script", 'a<img src="x" onerror="y">b<script>c()</script>', "abc()"],
    ["an HTML comment", "a<!-- hidden -->b", "ab"],
    ["an unclosed HTML comment", "a<!-- hidden", "a"],
    ["a stray <", "a < b and <not a tag", "a &lt; b and &lt;not a tag"],
    ["a Markdown image", "see ![x](https://github.com/acme/widgets/raw/a.png) here", "see  here"],
    ["a link to another host", "[docs](https://evil.example/x)", "docs (`https://evil.example/x`)"],
    [
      "a link into the repository",
      "[a](https://github.com/acme/widgets/blob/main/a.ts)",
      "[a](https://github.com/acme/widgets/blob/main/a.ts)",
    ],
    [
      "a link to another repository on the host",
      "[a](https://github.com/acme/other)",
      "a (`https://github.com/acme/other`)",
    ],
    [
      "a link to an issue of the repository (cross-references it)",
      "[i](https://github.com/acme/widgets/issues/1)",
      "i (`https://github.com/acme/widgets/issues/1`)",
    ],
    ["a javascript: link", "[x](javascript:alert(1))", "\\[x]\\(javascript:alert(1))"],
    ["a bare foreign URL", "go to https://evil.example/a, now", "go to `https://evil.example/a`, now"],
    ["a www URL", "www.evil.example", "`www.evil.example`"],
    ["an autolink", "<https://evil.example>", "`https://evil.example`"],
    ["a link reference definition", "[x]: https://evil.example", "\\[x]: `https://evil.example`"],
    ["zero-width characters", "a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf", "abcdef"],
    ["bidi controls", "a\u202Ab\u202Bc\u202Cd\u202De\u202Ef\u2066g\u2067h\u2068i\u2069j", "abcdefghij"],
    ["Unicode tag characters", "ok\u{E0001}\u{E0041}\u{E007F}", "ok"],
    ["a forged review marker", "<!-- loupe:review sha=abc run=1 -->", ""],
    ["a model ```suggestion block", "```suggestion\nx\n```", "```\nx\n```"],
  ])("neutralises %s", (_name, input, expected) => {
    expect(clean(input)).toBe(expected);
  });

  it.each([
    ["inline code", "use `@Override` or `#include <x>`", "use `@Override` or `#include <x>`"],
    [
      "a fenced block with mentions and HTML",
      "```html\n<b>@x</b> #1 <!-- c -->\n```",
      "```html\n<b>@x</b> #1 <!-- c -->\n```",
    ],
    ["a tilde fence", "~~~\n@x\n~~~", "~~~\n@x\n~~~"],
  ])("keeps %s intact", (_name, input, expected) => {
    expect(clean(input)).toBe(expected);
  });

  it("breaks a forged marker inside code, where it would still be in the raw body", () => {
    const out = clean("```\n<!-- loupe:fp=0123456789abcdef -->\n<!--loupe:review sha=x run=1 -->\n```");
    expect(out).not.toMatch(/<!--\s*loupe/i);
    expect(extractFingerprints(out)).toEqual(new Set());
  });

  it("closes an unclosed fence so it cannot swallow Loupe's own text", () => {
    expect(clean("```js\nlet a;")).toBe("```js\nlet a;\n```");
  });

  it("treats an indented fence as prose (a list item could close it early)", () => {
    const out = clean("- item\n  ```\n@admin\n  ```");
    expect(proseOf(out)).not.toMatch(/@\w/);
  });

  const adversarial = [
    "a `x\ny` @user `z`",
    "`a | @user` in a table",
    "\\`@user` escaped backtick",
    "``@a` @b``",
    '<span title="`">@user</span>`"',
    "<div>\n```\n@user\n```\n</div>",
    "[`x`](https://evil.example/`@y`)",
    "> ```\n> @quoted\n> ```",
    "    indented @code",
    "@a@b @@c @-d",
    "   ~~~\n@x\n   ~~~",
    "![a](b) ![@x](https://evil.example/i.png)",
    "[@team](https://github.com/acme/widgets/blob/main/x)",
  ];
  it.each(adversarial)("leaves no @mention, #ref, tag or foreign link in prose: %j", (input) => {
    const out = clean(input);
    const prose = proseOf(out);
    expect(prose).not.toMatch(/@\w/);
    expect(prose.replace(/&#\d+;/g, "")).not.toMatch(/#\d/);
    expect(prose).not.toContain("<");
    expect(prose.replace(/&#96;/g, "")).not.toContain("`");
    expect(prose).not.toMatch(/\]\((?!https:\/\/github\.com\/acme\/widgets\/)/);
  });

  it("never lets model text forge a review marker that hasReviewMarker would accept", () => {
    const sha = "a".repeat(40);
    for (const input of [
      `<!-- loupe:review sha=${sha} run=7 -->`,
      `\`<!-- loupe:review sha=${sha} run=7 -->\``,
      `\`\`\`\n<!-- loupe:review sha=${sha} run=7 -->\n\`\`\``,
    ]) {
      expect(hasReviewMarker(clean(input), sha, 7)).toBe(false);
    }
  });

  describe("length cap", () => {
    it.each([
      ["prose", "word @x ".repeat(5000)],
      ["a long fence", `intro\n\`\`\`\n${"code line\n".repeat(5000)}\`\`\`\nafter`],
      ["many code spans", "`a` b ".repeat(5000)],
    ])("truncates %s visibly, within the limit, with fences closed", (_name, input) => {
      const out = clean(input, 1000);
      expect(out.length).toBeLessThanOrEqual(1000);
      expect(out.endsWith(TRUNCATION_MARKER)).toBe(true);
      expect(proseOf(out)).not.toMatch(/@\w/);
      const fences = splitSegments(out).filter((s) => s.kind === "fence");
      for (const fence of fences) expect(fence.kind === "fence" && fence.close).not.toBeNull();
    });

    it("leaves text under the limit untouched", () => {
      expect(clean("short", 5)).toBe("short");
    });
  });
});
