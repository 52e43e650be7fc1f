import { describe, expect, it } from "@jest/globals";
import { clampOutput, clampText } from "../../src/github/check-run.ts";

const isWellFormed = (text: string): boolean => text.isWellFormed();

describe("clamping check-run texts to GitHub's limits", () => {
  it("never cuts a surrogate pair in half, whatever the offset", () => {
    for (let pad = 0; pad < 4; pad++) {
      const text = "x".repeat(pad) + "😀".repeat(40_000);
      const clamped = clampText(text, 65_535);
      expect(clamped.length).toBeLessThanOrEqual(65_535);
      expect(isWellFormed(clamped)).toBe(true);
      expect(clamped.endsWith("… (truncated to fit GitHub's limit)")).toBe(true);
    }
  });

  it("keeps a title within 255 units on a code point", () => {
    for (let pad = 0; pad < 2; pad++) {
      const { title } = clampOutput({ title: "t".repeat(pad) + "𝔸".repeat(300), summary: "s" });
      expect(title.length).toBeLessThanOrEqual(255);
      expect(isWellFormed(title)).toBe(true);
      expect(title.endsWith("…")).toBe(true);
    }
  });

  it("removes invisible and format characters from the title", () => {
    const { title } = clampOutput({ title: "Loupe:\u180B 1 finding\u{E0080} (1\u200B high)", summary: "s" });
    expect(title).toBe("Loupe: 1 finding (1 high)");
  });

  it("leaves text within the limit as it is", () => {
    expect(clampText("short 😀", 65_535)).toBe("short 😀");
  });
});
