// action.yml against GitHub's documented metadata schema (test/support/action-metadata-schema.ts),
// and against the code: every input the action reads is declared, nothing declared goes unread,
// the defaults are Loupe's, and `main` is the committed bundle.

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";
import * as v from "valibot";
import { parse } from "yaml";
import {
  ACTION_INPUTS,
  DEFAULT_BOT_LOGIN,
  DEFAULT_MENTION,
  ENV_OF_INPUT,
  readActionSettings,
} from "../../../src/action/action-inputs.ts";
import { ActionMetadata } from "../../support/action-metadata-schema.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const metadata = parse(fs.readFileSync(path.join(ROOT, "action.yml"), "utf8")) as unknown;

describe("action.yml", () => {
  it("is valid action metadata for a JavaScript action", () => {
    const result = v.safeParse(ActionMetadata, metadata);
    expect(result.issues?.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`) ?? []).toEqual([]);
  });

  it("runs the committed bundle on node24", () => {
    const { runs } = v.parse(ActionMetadata, metadata);
    expect(runs).toEqual({ using: "node24", main: "dist-action/index.js" });
    expect(fs.existsSync(path.join(ROOT, runs.main))).toBe(true);
  });

  it("declares exactly the inputs the action reads, with Loupe's defaults", () => {
    const { inputs = {} } = v.parse(ActionMetadata, metadata);
    expect(Object.keys(inputs).sort()).toEqual([...Object.keys(ENV_OF_INPUT), ...ACTION_INPUTS].sort());
    // The defaults Loupe itself takes when the inputs are blank.
    const { provider } = readActionSettings({
      "INPUT_OPENAI-BASE-URL": "https://models.example/v1",
      "INPUT_OPENAI-API-KEY": "sk-metadata-test",
      "INPUT_REVIEW-MODEL": "some-model",
      "INPUT_GITHUB-TOKEN": "ghs_metadata_test",
    });
    // No default model: a model's name belongs to one provider.
    expect(inputs["review-model"]).toMatchObject({ required: true });
    expect(inputs["review-model"]?.default).toBeUndefined();
    expect(inputs["tool-calls"]?.default).toBe(provider.toolCalls);
    expect(inputs["bot-login"]?.default).toBe(DEFAULT_BOT_LOGIN);
    expect(inputs.mention?.default).toBe(DEFAULT_MENTION);
    // A workflow expression, not a JavaScript template: GitHub fills in the job's token.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text of action.yml
    expect(inputs["github-token"]?.default).toBe("${{ github.token }}");
    expect(inputs["openai-api-key"]?.required).toBe(true);
  });

  it("declares the six outputs", () => {
    const { outputs = {} } = v.parse(ActionMetadata, metadata);
    expect(Object.keys(outputs).sort()).toEqual([
      "cost",
      "findings",
      "result-file",
      "sarif-file",
      "termination-reason",
      "tokens",
    ]);
  });

  it("is refused by the schema when it would not run (a wrong runtime, a misspelt key)", () => {
    const base = metadata as Record<string, Record<string, unknown>>;
    expect(v.safeParse(ActionMetadata, { ...base, runs: { ...base.runs, using: "node12" } }).success).toBe(
      false,
    );
    expect(v.safeParse(ActionMetadata, { ...base, runs: { ...base.runs, entry: "x.js" } }).success).toBe(
      false,
    );
    expect(v.safeParse(ActionMetadata, { ...base, branding: { color: "pink" } }).success).toBe(false);
  });
});
