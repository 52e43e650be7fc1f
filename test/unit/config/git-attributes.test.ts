// The base's .gitattributes as GitHub reads it for generated, vendored and diff-less files: git's
// pattern rules (no slash: any directory; a leading slash: the root), later lines winning, macros
// and unsets, and a hostile file bounded by the same glob limits as .github/loupe.yml.

import { describe, expect, it } from "@jest/globals";
import { gitAttributes, NO_ATTRIBUTES, parseGitAttributes } from "../../../src/config/git-attributes.ts";
import { TimeSlices } from "../../../src/domain/time-slices.ts";

const reasonOf = (text: string, path: string) => gitAttributes(text).reasonFor(path, new TimeSlices());

describe("the base's .gitattributes", () => {
  it("marks generated, vendored and diff-less files as GitHub does", async () => {
    const text = [
      "# generated code",
      "*.pb.go linguist-generated=true",
      "/dist/** linguist-generated",
      "third_party/** linguist-vendored",
      "*.snap -diff",
      "*.bin binary",
      "*.ts text eol=lf",
    ].join("\n");
    expect(await reasonOf(text, "api/v1/user.pb.go")).toBe("generated");
    expect(await reasonOf(text, "dist/app.js")).toBe("generated");
    expect(await reasonOf(text, "web/dist/app.js")).toBeNull();
    expect(await reasonOf(text, "third_party/lib/x.c")).toBe("vendored");
    expect(await reasonOf(text, "test/__snapshots__/a.snap")).toBe("no_diff");
    expect(await reasonOf(text, "assets/model.bin")).toBe("no_diff");
    expect(await reasonOf(text, "src/index.ts")).toBeNull();
  });

  it("lets a later line unset what an earlier one set", async () => {
    const text =
      "gen/** linguist-generated\ngen/keep.ts -linguist-generated\ngen/also.ts linguist-generated=false\n";
    expect(await reasonOf(text, "gen/other.ts")).toBe("generated");
    expect(await reasonOf(text, "gen/keep.ts")).toBeNull();
    expect(await reasonOf(text, "gen/also.ts")).toBeNull();
  });

  it("skips what cannot be read safely: directory-only, negated and over-limit patterns, macros, lines past the bound", () => {
    const hostile = [
      "vendor/ linguist-vendored",
      "!important linguist-generated",
      `${"*a".repeat(200)}b linguist-generated`,
      "[attr]mine linguist-generated",
      ...Array.from({ length: 1_000 }, (_, i) => `f${i}.txt linguist-generated`),
    ].join("\n");
    const rules = parseGitAttributes(hostile);
    expect(rules.length).toBeLessThanOrEqual(200);
    expect(rules.every((rule) => rule.glob.startsWith("**/f"))).toBe(true);
  });

  it("says nothing when the repository has no .gitattributes", async () => {
    expect(await NO_ATTRIBUTES.reasonFor("anything", new TimeSlices())).toBeNull();
    expect(await reasonOf("", "a.ts")).toBeNull();
  });
});
