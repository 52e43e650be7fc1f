// A worker directory's name records the process that made it, and only names of that form are
// read as such: a host name with hyphens and digits, an odd host name made safe, and every other
// name (the older form, a workspace's, a name with no process id) read as no owner.

import { describe, expect, it } from "@jest/globals";
import { ownerOfWorkerDir, workerDirPrefix } from "../../../src/isolation/worker-dirs.ts";

const named = (host: string, pid: number) => `${workerDirPrefix({ host, pid })}aB3dE9`;

describe("a worker directory's owner", () => {
  it("is read back from the name it was made with", () => {
    for (const [host, pid] of [
      ["replica-7c9f-2", 1],
      ["ip-10-0-3-17.ec2.internal", 4_194_304],
      ["node-12", 345],
      ["h", 2_147_483_647],
    ] as const)
      expect(ownerOfWorkerDir(named(host, pid))).toEqual({ host, pid });
  });

  it("keeps a host name in letters, digits, dots and hyphens", () => {
    expect(workerDirPrefix({ host: "pod/α b", pid: 7 })).toBe("loupe-worker-pod___b-7-");
    expect(ownerOfWorkerDir(named("pod/α b", 7))).toEqual({ host: "pod___b", pid: 7 });
    expect(workerDirPrefix({ host: "", pid: 7 })).toBe("loupe-worker-_-7-");
  });

  it("is none for names of any other form", () => {
    for (const name of [
      "loupe-worker-aB3dE9",
      "loupe-workspace-aB3dE9",
      "loupe-worker-host-aB3dE9",
      "loupe-worker-host-0-aB3dE9",
      "loupe-worker-host-12-aB3dE",
      "loupe-worker-host-12-aB3dE9x",
      "loupe-worker-host-99999999999-aB3dE9",
      "loupe-worker--12-aB3dE9",
      "x-loupe-worker-host-12-aB3dE9",
    ])
      expect([name, ownerOfWorkerDir(name)]).toEqual([name, null]);
  });
});
