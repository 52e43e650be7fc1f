// The guard of every test file's environment, which lets one worker run file after file: a program
// a file left running is found (and named), one that was stopped is not.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "@jest/globals";
import TestFileEnvironment, { liveChildren } from "../../support/test-environment.js";

describe("the test environment's guard against programs left running", () => {
  it("sees a program the file started until it has exited", async () => {
    const child = spawn("sleep", ["300"], { stdio: "ignore" });
    await once(child, "spawn");
    expect(liveChildren()).toContainEqual({ pid: child.pid, command: "sleep 300" });
    child.kill("SIGTERM");
    await once(child, "exit");
    expect(liveChildren().map((c) => c.pid)).not.toContain(child.pid);
  });

  it("fails the file's teardown, naming the program, when one is left running", async () => {
    // This environment is not a test file of the run: its CPU is not written into the run's report.
    const cpuDir = process.env.LOUPE_TEST_CPU_DIR;
    delete process.env.LOUPE_TEST_CPU_DIR;
    const environment = new TestFileEnvironment(
      { globalConfig: {}, projectConfig: { testEnvironmentOptions: {} } } as never,
      { testPath: "left-running.test.ts", console, docblockPragmas: {} } as never,
    );
    await environment.setup();
    const child = spawn("sleep", ["301"], { stdio: "ignore" });
    await once(child, "spawn");
    try {
      await expect(environment.teardown()).rejects.toThrow(/left 1 program\(s\) running[\s\S]*sleep 301/);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
      if (cpuDir !== undefined) process.env.LOUPE_TEST_CPU_DIR = cpuDir;
    }
  }, 30_000);
});
