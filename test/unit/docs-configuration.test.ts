// The docs an operator reads stay true: every variable the configuration schemas read is in
// docs/configuration.md, and pages no longer point at sections that moved or at text that is not
// there ("the provider recipes above", the README's old sections).

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

/** The environment variables the schemas of src/config read: their keys. */
function schemaVariables(): string[] {
  const dir = path.join(ROOT, "src/config");
  const names = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .flatMap((f) => [...read(`src/config/${f}`).matchAll(/^\s+([A-Z][A-Z0-9_]{2,}): /gm)].map((m) => m[1]!));
  return [...new Set(names)].sort();
}

describe("the operator's docs", () => {
  it("document every variable the configuration reads", () => {
    const docs = read("docs/configuration.md");
    const variables = schemaVariables();
    expect(variables).toEqual(expect.arrayContaining(["LOG_STILL_DOWN_SECONDS", "SENTRY_DSN"]));
    expect(variables.filter((name) => !docs.includes(`\`${name}\``))).toEqual([]);
    const example = read(".env.example");
    for (const name of ["LOG_STILL_DOWN_SECONDS", "SENTRY_DSN"])
      expect(example).toMatch(new RegExp(`^${name}=`, "m"));
  });

  it("point at sections that exist, never at the README's old ones or at 'recipes above'", () => {
    expect(read("docs/operations.md")).not.toMatch(/README's "|see the README|the README lists/);
    expect(read("docs/troubleshooting.md")).not.toContain("recipes above");
    const anchors = new Set(
      [...read("docs/deploy.md").matchAll(/^#+ (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^\w\s-]/g, "")
          .replace(/\s/g, "-"),
      ),
    );
    const linked = [...read("docs/operations.md").matchAll(/\(deploy\.md#([^)]+)\)/g)].map((m) => m[1]!);
    expect(linked.length).toBeGreaterThan(0);
    expect(linked.filter((anchor) => !anchors.has(anchor))).toEqual([]);
  });

  it("say when a review is cancelled as it is: a restart of a fleet replica hands it back", () => {
    for (const file of ["docs/reviews.md", "docs/troubleshooting.md"]) {
      expect([file, read(file).includes("or Loupe restarted")]).toEqual([file, false]);
    }
  });

  it("say a fleet webhook answered 503 may still run once Redis returns, and is not reviewed twice", () => {
    const deploy = read("docs/deploy.md").replace(/\s+/g, " ");
    expect(deploy).toContain("A delivery answered `503` may still be reviewed once Redis returns");
    expect(deploy).toContain("a `duplicate_delivery` and is not reviewed twice");
  });
});
