// GITHUB_OUTPUT in the runner's multiline-safe form: every value, newlines and `=` included,
// reads back whole, and a value holding its own delimiter is refused rather than cut.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";
import { outputEntry, writeOutputs } from "../../../src/action/step-files.ts";
import { parseOutputs } from "../../support/action-runner.ts";

describe("the step's outputs", () => {
  it("read back whole, whatever the values hold", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-outputs-"));
    try {
      const file = path.join(dir, "output");
      const values = { empty: "", multi: "line one\nline two\n\nfour=4", tricky: "EOF\nname<<EOF" };
      writeOutputs(file, values);
      writeOutputs(file, { later: "x" });
      expect(parseOutputs(fs.readFileSync(file, "utf8"))).toEqual({ ...values, later: "x" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuse a value that holds its delimiter", () => {
    expect(outputEntry("a", "1", "D")).toBe("a<<D\n1\nD\n");
    expect(() => outputEntry("a", "x\nD\ny", "D")).toThrow("contains its delimiter");
  });
});
