// The pure parts of the object database: delta application, the byte-bounded cache, tree and
// commit parsing. Hostile bytes must end in CorruptObjectStoreError, never in garbage or a hang.

import { describe, expect, it } from "@jest/globals";
import { createByteBudgetCache } from "../../../src/workspace/objects/byte-budget-cache.ts";
import { applyDelta, deltaResultSize } from "../../../src/workspace/objects/delta.ts";
import { CorruptObjectStoreError, gitObjectId } from "../../../src/workspace/objects/git-object.ts";
import { commitTreeId, parseTree } from "../../../src/workspace/objects/tree-object.ts";

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => new TextEncoder().encode(value);

describe("applyDelta", () => {
  const base = text("hello, world");

  it("copies from the base and inserts literal bytes", () => {
    // base 12, result 10: copy offset 7 size 5 ("world"), insert "!!!!!".
    const delta = bytes(12, 10, 0x80 | 0x01 | 0x10, 7, 5, 5, ...text("!!!!!"));
    expect(new TextDecoder().decode(applyDelta(base, delta))).toBe("world!!!!!");
    expect(deltaResultSize(delta)).toBe(10);
  });

  it("reads copy offsets and sizes of several bytes, little-endian", () => {
    const long = new Uint8Array(0x30000).map((_, i) => i % 251);
    // Copy 0x10203 bytes from offset 0x1f00a: offset bytes 1 and 2 and 3 (0x0a, 0xf0, 0x01), size
    // bytes 1, 2 and 3 (0x03, 0x02, 0x01).
    const delta = bytes(
      0x80,
      0x80,
      0x0c,
      0x83,
      0x84,
      0x04,
      0x80 | 0x07 | 0x70,
      0x0a,
      0xf0,
      0x01,
      0x03,
      0x02,
      0x01,
    );
    expect(
      Buffer.from(applyDelta(long, delta)).equals(Buffer.from(long.subarray(0x1f00a, 0x1f00a + 0x10203))),
    ).toBe(true);
  });

  it("reads a copy size of 0 as 0x10000", () => {
    const big = new Uint8Array(0x10000).fill(7);
    // sizes as varints: 0x10000 = 0x80 0x80 0x04
    const delta = bytes(0x80, 0x80, 0x04, 0x80, 0x80, 0x04, 0x80);
    expect(applyDelta(big, delta)).toEqual(big);
  });

  it.each([
    ["a base of the wrong size", bytes(11, 1, 1, 65)],
    ["a truncated size header", bytes(0x80)],
    ["a copy past the end of the base", bytes(12, 5, 0x80 | 0x01 | 0x10, 10, 5)],
    ["a truncated copy instruction", bytes(12, 5, 0x80 | 0x01 | 0x10, 10)],
    ["a copy instruction cut off in its size bytes", bytes(12, 5, 0x80 | 0x01 | 0x10 | 0x20, 1, 5)],
    ["a copy from an offset of 2^31", bytes(12, 5, 0x80 | 0x08 | 0x10, 0x80, 5)],
    ["an insert past the end of the delta", bytes(12, 5, 5, 65, 65)],
    ["an insert over the declared size", bytes(12, 1, 2, 65, 65)],
    ["the reserved instruction 0", bytes(12, 1, 0)],
    ["fewer bytes than declared", bytes(12, 3, 1, 65)],
  ])("refuses %s", (_name, delta) => {
    expect(() => applyDelta(base, delta)).toThrow(CorruptObjectStoreError);
  });
});

describe("createByteBudgetCache", () => {
  it("evicts the least recently used entries once the budget is exceeded", () => {
    const cache = createByteBudgetCache<string>(100);
    cache.set("a", "A", 20);
    cache.set("b", "B", 20);
    cache.set("c", "C", 20);
    expect(cache.get("a")).toBe("A"); // a is now the most recent
    cache.set("d", "D", 25);
    cache.set("e", "E", 25);
    expect(cache.bytesHeld).toBeLessThanOrEqual(100);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe("A");
    expect(cache.get("e")).toBe("E");
  });

  it("does not keep an entry larger than a quarter of the budget", () => {
    const cache = createByteBudgetCache<string>(100);
    cache.set("small", "s", 10);
    cache.set("huge", "h", 26);
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.get("small")).toBe("s");
  });

  it("replaces an entry without counting it twice", () => {
    const cache = createByteBudgetCache<string>(100);
    cache.set("a", "1", 20);
    cache.set("a", "2", 10);
    expect(cache.get("a")).toBe("2");
    expect(cache.bytesHeld).toBe(10);
  });
});

function treeBytes(...entries: [mode: string, name: string, oid: string][]): Uint8Array {
  return Buffer.concat(
    entries.map(([mode, name, oid]) =>
      Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, "hex")]),
    ),
  );
}

describe("parseTree", () => {
  const oid = "ab".repeat(20);

  it("reads every kind of entry and canonicalises old modes like git", () => {
    const tree = treeBytes(
      ["40000", "dir", oid],
      ["100644", "file", oid],
      ["100664", "group-writable", oid],
      ["100755", "tool", oid],
      ["120000", "link", oid],
      ["160000", "sub", oid],
    );
    expect(parseTree(tree, "t").map(({ name, kind }) => [name, kind])).toEqual([
      ["dir", "tree"],
      ["file", "file"],
      ["group-writable", "file"],
      ["tool", "executable"],
      ["link", "symlink"],
      ["sub", "submodule"],
    ]);
    expect(parseTree(tree, "t")[0]!.oid).toBe(oid);
  });

  it("drops names that would alias another path or reach .git", () => {
    const tree = treeBytes(
      ["100644", ".git", oid],
      ["40000", ".GiT", oid],
      ["100644", "..", oid],
      ["100644", ".", oid],
      ["100644", "a/b", oid],
      ["100644", "", oid],
      ["100644", "kept", oid],
    );
    expect(parseTree(tree, "t").map((item) => item.name)).toEqual(["kept"]);
  });

  it.each([
    ["a missing space", Buffer.from("100644")],
    ["a missing NUL", Buffer.from("100644 name")],
    ["a truncated id", Buffer.concat([Buffer.from("100644 name\0"), Buffer.alloc(10)])],
    ["an unknown mode", treeBytes(["170000", "x", "ab".repeat(20)])],
    ["a non-octal mode", treeBytes(["10064x", "x", "ab".repeat(20)])],
    ["an empty mode", treeBytes(["", "x", "ab".repeat(20)])],
    ["a mode of eight digits", treeBytes(["00100644", "x", "ab".repeat(20)])],
    ["a mode with a digit 8", treeBytes(["100684", "x", "ab".repeat(20)])],
  ])("refuses a tree with %s", (_name, tree) => {
    expect(() => parseTree(tree, "t")).toThrow(CorruptObjectStoreError);
  });
});

describe("commitTreeId and gitObjectId", () => {
  it("reads the tree line of a commit", () => {
    const tree = "cd".repeat(20);
    expect(commitTreeId(text(`tree ${tree}\nauthor x\n\nmsg\n`), "c")).toBe(tree);
    expect(() => commitTreeId(text("author x\n"), "c")).toThrow(CorruptObjectStoreError);
  });

  it("hashes like git hash-object", () => {
    // `printf 'hello\n' | git hash-object --stdin`
    expect(gitObjectId("blob", text("hello\n"))).toBe("ce013625030ba8dba906f756967f9e9ca394464a");
  });
});
