// Where the install tests put npm's installs: memory when it is a tmpfs programs may run from,
// with room for the install; the system's temp directory otherwise.

import fs from "node:fs";
import os from "node:os";
import { expect, it } from "@jest/globals";
import { installRoot } from "../../support/install-root.ts";

const memoryMount = (): string[] | undefined =>
  fs.existsSync("/proc/mounts")
    ? fs
        .readFileSync("/proc/mounts", "utf8")
        .split("\n")
        .map((line) => line.split(" "))
        .find((fields) => fields[1] === "/dev/shm")
    : undefined;

it("uses the system's temp directory where no tmpfs is mounted", () => {
  expect(installRoot(1, "/no/such/mount")).toBe(os.tmpdir());
});

it("uses the system's temp directory when the install would not fit in memory", () => {
  expect(installRoot(Number.MAX_SAFE_INTEGER)).toBe(os.tmpdir());
});

it("uses /dev/shm for a small install when it is a tmpfs without noexec", () => {
  const mount = memoryMount();
  const usable = mount?.[2] === "tmpfs" && !(mount[3] ?? "").split(",").includes("noexec");
  expect(installRoot(1)).toBe(usable ? "/dev/shm" : os.tmpdir());
});
