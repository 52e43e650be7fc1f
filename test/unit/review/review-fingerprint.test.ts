import { describe, expect, it } from "@jest/globals";
import {
  extractFingerprints,
  fingerprintFinding,
  fingerprintMarker,
} from "../../../src/review/fingerprint.ts";

describe("fingerprintFinding", () => {
  const fp = fingerprintFinding("src/a.ts", ["  if (x)  {", "return y;"], "Null check missing");

  it("is 16 hex digits and stable", () => {
    expect(fp).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprintFinding("src/a.ts", ["  if (x)  {", "return y;"], "Null check missing")).toBe(fp);
  });

  it.each([
    ["re-indented code", ["\tif (x) {", "    return y;"], "Null check missing"],
    ["CRLF and blank lines", ["if (x) {\r", "", "return y;"], "Null check missing"],
    ["title case and spacing", ["if (x) {", "return y;"], "  null CHECK   missing "],
  ])("ignores %s", (_name, code, title) => {
    expect(fingerprintFinding("src/a.ts", code, title)).toBe(fp);
  });

  it.each([
    ["another path", "src/b.ts", ["if (x) {", "return y;"], "Null check missing"],
    ["other code", "src/a.ts", ["if (z) {", "return y;"], "Null check missing"],
    ["another title", "src/a.ts", ["if (x) {", "return y;"], "Null check present"],
  ])("changes with %s", (_name, path, code, title) => {
    expect(fingerprintFinding(path, code, title)).not.toBe(fp);
  });

  it("does not confuse the boundary between path, code and title", () => {
    expect(fingerprintFinding("a", ["b"], "c")).not.toBe(fingerprintFinding("a\nb", [], "c"));
  });
});

describe("markers", () => {
  it("round-trips through a body and ignores look-alikes", () => {
    const a = "0123456789abcdef";
    const b = "fedcba9876543210";
    const body = `text ${fingerprintMarker(a)}\n${fingerprintMarker(b)} <!-- loupe:fp=XYZ --> loupe:fp=1111111111111111`;
    expect(extractFingerprints(body)).toEqual(new Set([a, b]));
  });

  it("refuses a malformed fingerprint", () => {
    expect(() => fingerprintMarker("abc --> <b>")).toThrow(TypeError);
  });
});
