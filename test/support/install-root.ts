// Where the install tests put an npm install of Loupe: Linux's memory-backed /dev/shm when it is a
// tmpfs mounted without noexec (the installed Node runs from there) with room to spare, else the
// system's temp directory. An install writes about 16,000 files (330 MB, most of them the `node`
// package's binary and headers) that the test removes after; on the disk filesystem of the test
// machines, writing and removing them was most of those files' system CPU (bench/README.md,
// issue 40, round 4). The install is the same either way: npm, its cache and the package do not
// change, only the filesystem under them.

import fs from "node:fs";
import os from "node:os";

const MEMORY_FS = "/dev/shm";

/** `/dev/shm` when `bytes` fit there beside what is already in it, and programs may run from it. */
export function installRoot(bytes: number, memoryFs = MEMORY_FS): string {
  try {
    const mount = fs
      .readFileSync("/proc/mounts", "utf8")
      .split("\n")
      .map((line) => line.split(" "))
      .find((fields) => fields[1] === memoryFs);
    if (mount === undefined || mount[2] !== "tmpfs" || (mount[3] ?? "").split(",").includes("noexec"))
      return os.tmpdir();
    const room = fs.statfsSync(memoryFs);
    return room.bavail * room.bsize >= bytes ? memoryFs : os.tmpdir();
  } catch {
    return os.tmpdir(); // no /proc/mounts: not Linux
  }
}
