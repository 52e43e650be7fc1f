// A head tree full of hostile entries, shared by the tools' hostile-input tests.

import { type MemoryRepository, type MemoryTree, memoryRepository } from "./memory-repository.ts";

const manyLines = Array.from({ length: 10_000 }, (_, index) => `line ${index + 1}`).join("\n");

export const HOSTILE_TREE: MemoryTree = {
  "README.md": "hello\n",
  "src/app.ts": 'import { validate } from "./util/strings.ts";\nexport const x = validate("a.*b");\n',
  "src/util/strings.ts": "export function validate(s: string) {\n  return s;\n}\n",
  "link-out-abs": { symlink: "/etc/passwd" },
  "link-out-rel": { symlink: "../../etc/passwd" },
  "dir-link-out": { symlink: "../.." },
  "src-link": { symlink: "src" },
  "readme-link": { symlink: "./README.md" },
  "git-link": { symlink: ".git/config" },
  "broken-link": { symlink: "nowhere" },
  "loop-a": { symlink: "loop-b" },
  "loop-b": { symlink: "loop-a" },
  "mid/link": { symlink: "../src" },
  "mid/escape": { symlink: "../../x" },
  ".git/config": '[remote "origin"]\n  url = https://token@example.com/x.git\n',
  "vendor/sub": { mode: "submodule", content: "a".repeat(40) },
  "big.txt": `${"x".repeat(1023)}\n`.repeat(2048),
  "bin.dat": new Uint8Array([0x50, 0x4b, 0x03, 0x00, 0x41, 0x0a]),
  "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  "long.txt": `${manyLines}\n`,
  "regex.txt": "a.*b literal\naxxb\n( paren\n[ bracket\n",
  "crlf.txt": "one\r\ntwo\r\n",
  "empty.txt": "",
  "quotes.txt": `${'"'.repeat(100)}\n`.repeat(400),
  "one-long-line.txt": "y".repeat(200_000),
  "run.sh": { mode: "executable", content: "#!/bin/sh\necho a.*b\n" },
};

export function hostileRepository(options?: { failingOids?: readonly string[] }): MemoryRepository {
  return memoryRepository({ head: HOSTILE_TREE, failingOids: options?.failingOids ?? [] });
}
