import { describe, expect, it } from "@jest/globals";
import { parseEvalArgs } from "../../../src/eval/eval-args.ts";
import { parseGoldenFile, pullAddress, pullKey } from "../../../src/eval/golden-file.ts";
import { candidateText, readVerdict } from "../../../src/eval/judge-prompt.ts";
import { parseManifest } from "../../../src/eval/manifest.ts";

const GOLDEN = [
  {
    pr_title: "Anonymous: Add configurable device limit",
    url: "https://github.com/grafana/grafana/pull/79265",
    comments: [{ comment: "Race condition in the device count check.", severity: "High" }],
    extra: "ignored",
  },
];

describe("the benchmark's golden files", () => {
  it("reads pull requests by URL with their golden comments", () => {
    const parsed = parseGoldenFile(JSON.stringify(GOLDEN));
    expect(parsed).toEqual({
      kind: "ok",
      pulls: [
        {
          pr_title: "Anonymous: Add configurable device limit",
          url: "https://github.com/grafana/grafana/pull/79265",
          comments: [{ comment: "Race condition in the device count check.", severity: "High" }],
        },
      ],
    });
    const address = pullAddress(GOLDEN[0]!.url);
    expect(address).toEqual({ owner: "grafana", repo: "grafana", number: 79265 });
    expect(pullKey(address!)).toBe("grafana__grafana__79265");
  });

  it("names the problem of a file it cannot use", () => {
    expect(parseGoldenFile("{")).toEqual({ kind: "invalid", problem: "is not JSON" });
    expect(parseGoldenFile(JSON.stringify([{ url: "https://x.dev/a", comments: [] }]))).toEqual({
      kind: "invalid",
      problem: "https://x.dev/a is not a pull request URL",
    });
    expect(parseGoldenFile(JSON.stringify([{ url: "https://github.com/a/b/pull/1" }]))).toMatchObject({
      kind: "invalid",
      problem: expect.stringMatching(/^0\.comments: /),
    });
  });

  it("refuses a manifest with a short commit", () => {
    const pull = {
      key: "a__b__1",
      url: "u",
      title: "t",
      clone_url: "c",
      base: "abc",
      head: "a".repeat(40),
      golden: [],
    };
    expect(parseManifest(JSON.stringify({ version: 1, pulls: [pull] }))).toMatch(
      /^the manifest is invalid: pulls\.0\.base/,
    );
  });
});

describe("the judge's answer and the eval's options", () => {
  it("reads a fenced JSON verdict and treats anything else as an error", () => {
    const answer = (content: unknown) => ({ choices: [{ message: { content } }] });
    expect(
      readVerdict(answer('```json\n{"match": true, "confidence": 0.8, "reasoning": "same"}\n```')),
    ).toEqual({
      kind: "verdict",
      match: true,
      confidence: 0.8,
      reasoning: "same",
    });
    expect(readVerdict(answer("yes"))).toEqual({ kind: "error", error: "not JSON" });
    expect(readVerdict(answer('{"match": "yes"}'))).toEqual({ kind: "error", error: "no boolean match" });
  });

  it("writes a candidate as place, title and explanation", () => {
    const finding = { path: "a.ts", line: 3, title: "T", explanation: "E" } as Parameters<
      typeof candidateText
    >[0];
    expect(candidateText(finding)).toBe("a.ts:3: T\nE");
  });

  it("takes two values for --compare and refuses another step's option", () => {
    expect(parseEvalArgs("report", ["--results", "r", "--compare", "a", "b"])).toEqual({
      results: ["r"],
      compare: ["a", "b"],
    });
    expect(() => parseEvalArgs("report", ["--results", "r", "--compare", "a"])).toThrow(
      "--compare needs two values",
    );
    expect(() => parseEvalArgs("judge", ["--results", "r", "--golden", "g"])).toThrow(
      'unknown option "--golden"',
    );
    expect(() => parseEvalArgs("run", ["--manifest", "m"])).toThrow("loupe eval run needs --variant");
  });
});
