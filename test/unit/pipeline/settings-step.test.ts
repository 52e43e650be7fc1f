// The skips `.github/loupe.yml` decides tell people what to type to get a review anyway: the exact
// command with the App's handle (`@<slug> review`), or general words when the handle is unknown.

import { describe, expect, it } from "@jest/globals";
import { parseConfigLayer } from "../../../src/config/repo-config.ts";
import { defaultRepoConfig } from "../../../src/config/repo-config-schema.ts";
import { PAUSE_LABEL } from "../../../src/conversation/pause-state.ts";
import type { PullRequest } from "../../../src/domain/pull-request.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { decideSettings } from "../../../src/pipeline/settings-step.ts";

const pr = (labels: readonly string[]): PullRequest => ({
  number: 1,
  url: "https://github.com/octo/app/pull/1",
  title: "A change",
  body: null,
  headSha: "b".repeat(40),
  baseSha: "a".repeat(40),
  draft: false,
  author: null,
  open: true,
  labels,
});

async function detail(text: string | null, labels: readonly string[], mention?: () => Promise<string>) {
  const step = await decideSettings({
    words: GITHUB_WORDS,
    configFile: {
      source: ".github/loupe.yml",
      file: text === null ? { kind: "missing" } : { kind: "found", text },
    },
    parse: parseConfigLayer,
    pullRequest: pr(labels),
    asked: false,
    ...(mention === undefined ? {} : { mention }),
  });
  if (step.kind !== "skipped") throw new Error(`not skipped: ${step.kind}`);
  return step.detail;
}

describe("the settings' skip texts", () => {
  it("names the exact review command when `auto_review` is off", async () => {
    const text = await detail("auto_review: false\n", [], async () => "loupe-review");
    expect(text).toContain(
      "Loupe reviews when asked (a comment `@loupe-review review`, or the Re-run button)",
    );
    expect(text).not.toContain("mentioning Loupe");
  });

  it("names the exact resume and review commands when reviews are paused", async () => {
    const text = await detail(null, [PAUSE_LABEL], async () => "loupe-review");
    expect(text).toContain(
      "a comment `@loupe-review resume` turns them back on, a comment `@loupe-review review` reviews now.",
    );
  });

  it("keeps general words when the handle cannot be looked up, and does not ask when nothing is skipped", async () => {
    const failing = async () => Promise.reject(new Error("GET /app failed"));
    expect(await detail("auto_review: false\n", [], failing)).toContain(
      "a `review` command mentioning Loupe",
    );
    let asked = 0;
    const step = await decideSettings({
      words: GITHUB_WORDS,
      configFile: { source: ".github/loupe.yml", file: { kind: "missing" } },
      parse: parseConfigLayer,
      pullRequest: pr([]),
      asked: false,
      mention: async () => {
        asked += 1;
        return "loupe-review";
      },
    });
    expect(step).toEqual({
      kind: "settings",
      config: defaultRepoConfig(),
      applied: {
        layers: [{ layer: "operator", source: "the server's environment", keys: [], ignored: [] }],
        rules: [],
      },
    });
    expect(asked).toBe(0);
  });
});
