// A worker directory's name records the process that made it (host, id and the process's token),
// and only names of that form are read as such: a host name with hyphens and digits, an odd host
// name made safe, and every other name (older forms, a workspace's, a name with no process id or
// token) read as no owner.

import { describe, expect, it } from "@jest/globals";
import { ownerOfWorkerDir, thisProcess, workerDirPrefix } from "../../../src/isolation/worker-dirs.ts";

const TOKEN = "0a1b2c3d";
const named = (host: string, pid: number) => `${workerDirPrefix({ host, pid, token: TOKEN })}aB3dE9`;

describe("a worker directory's owner", () => {
  it("is read back from the name it was made with", () => {
    expect(ownerOfWorkerDir(`${workerDirPrefix(thisProcess())}aB3dE9`)).toEqual(thisProcess());
    for (const [host, pid] of [
      ["replica-7c9f-2", 1],
      ["ip-10-0-3-17.ec2.internal", 4_194_304],
      ["node-12", 345],
      ["h", 2_147_483_647],
    ] as const)
      expect(ownerOfWorkerDir(named(host, pid))).toEqual({ host, pid, token: TOKEN });
  });

  it("keeps a host name in letters, digits, dots and hyphens", () => {
    expect(workerDirPrefix({ host: "pod/α b", pid: 7, token: TOKEN })).toBe(
      "loupe-worker-pod___b-7-0a1b2c3d-",
    );
    expect(ownerOfWorkerDir(named("pod/α b", 7))).toEqual({ host: "pod___b", pid: 7, token: TOKEN });
    expect(workerDirPrefix({ host: "", pid: 7, token: TOKEN })).toBe("loupe-worker-_-7-0a1b2c3d-");
  });

  it("is none for names of any other form", () => {
    for (const name of [
      "loupe-worker-aB3dE9",
      "loupe-workspace-aB3dE9",
      "loupe-worker-host-aB3dE9",
      "loupe-worker-host-12-aB3dE9", // no token
      "loupe-worker-host-0-0a1b2c3d-aB3dE9",
      "loupe-worker-host-12-0a1b2c3-aB3dE9",
      "loupe-worker-host-12-0A1B2C3D-aB3dE9",
      "loupe-worker-host-12-0a1b2c3d-aB3dE",
      "loupe-worker-host-12-0a1b2c3d-aB3dE9x",
      "loupe-worker-host-99999999999-0a1b2c3d-aB3dE9",
      "loupe-worker--12-0a1b2c3d-aB3dE9",
      "x-loupe-worker-host-12-0a1b2c3d-aB3dE9",
    ])
      expect([name, ownerOfWorkerDir(name)]).toEqual([name, null]);
  });
});
