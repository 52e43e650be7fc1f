import { describe, expect, it } from "@jest/globals";
import { checkRepositoryPath } from "../../../src/workspace/safe-path.ts";

describe("checkRepositoryPath", () => {
  it.each([
    ["src/app.ts", "src/app.ts"],
    ["./src/app.ts", "src/app.ts"],
    ["././a", "a"],
    ["src/", "src"],
    [".gitignore", ".gitignore"],
    ["a/.github/workflows/ci.yml", "a/.github/workflows/ci.yml"],
    ["dir with space/ünïcode.txt", "dir with space/ünïcode.txt"],
    ["...", "..."],
  ])("accepts %j as %j", (raw, path) => {
    expect(checkRepositoryPath(raw)).toEqual({ ok: true, path });
  });

  it.each(["", ".", "./"])("treats %j as the root only when allowed", (raw) => {
    expect(checkRepositoryPath(raw, { allowEmpty: true })).toEqual({ ok: true, path: "" });
    const refused = checkRepositoryPath(raw);
    expect(refused).toEqual({ ok: false, code: "invalid_path", message: expect.stringContaining("empty") });
  });

  it.each([
    ["/etc/passwd", "not absolute"],
    ["//server/share", "not absolute"],
    ["C:/Windows/win.ini", "Drive-letter"],
    ["c:foo", "Drive-letter"],
    ["\\\\server\\share\\x", "UNC"],
    ["src\\app.ts", "backslashes"],
    ["src/app\0.ts", "NUL"],
    ["../outside", "'..'"],
    ["src/../../etc/passwd", "'..'"],
    ["src/..", "'..'"],
    [".git/config", ".git"],
    ["sub/.git/HEAD", ".git"],
    [".GIT/config", ".git"],
    [".Git", ".git"],
    ["src//app.ts", "empty segments"],
    ["src//", "empty segments"],
    ["a/./b", "'.' segments"],
    ["a/.", "'.' segments"],
    ["x".repeat(5000), "longer than 4096"],
  ])("refuses %j", (raw, fragment) => {
    const checked = checkRepositoryPath(raw, { allowEmpty: true });
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.code).toBe("invalid_path");
      expect(checked.message).toContain(fragment);
    }
  });
});
