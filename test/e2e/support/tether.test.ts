// A detached program tethered to the process that started it ends when that process is killed
// (SIGKILL: no exit handler runs), as a test server must when its jest worker dies before its
// teardown; untied, it is left alone. A real `sleep` in its own process group, started by a real
// Node process.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "@jest/globals";

const TETHER = new URL("../../support/tether.ts", import.meta.url).href;

const runs = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A Node process that starts `sleep 300` detached, tethers it (and unties it if asked), and waits. */
async function starter(untie: boolean) {
  const script = `
    const { tether } = await import(${JSON.stringify(TETHER)});
    const { spawn } = await import("node:child_process");
    const sleeper = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
    const untie = tether(sleeper.pid);
    if (${untie}) untie();
    process.stdout.write(sleeper.pid + "\\n");
    setInterval(() => {}, 60_000);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  return { child, sleeper: Number(line.toString().trim()) };
}

async function gone(pid: number): Promise<void> {
  while (runs(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("a tethered program", () => {
  it("ends when the process that started it is killed", async () => {
    const { child, sleeper } = await starter(false);
    expect(runs(sleeper)).toBe(true);
    child.kill("SIGKILL");
    await once(child, "exit");
    await gone(sleeper); // bounded by the test's timeout
  });

  it("is left alone once untied", async () => {
    const { child, sleeper } = await starter(true);
    child.kill("SIGKILL");
    await once(child, "exit");
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      expect(runs(sleeper)).toBe(true);
    } finally {
      process.kill(-sleeper, "SIGKILL");
    }
  });
});
