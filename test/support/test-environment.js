// Every test file's environment: the CPU accounting (cpu-environment.js), plus one guard that lets
// a worker run file after file. Test files start real programs (Loupe servers, redis-server, git
// http-backend, Chromium, esbuild's service); one left running would keep its ports, its CPU and
// its memory into the next file that the worker runs, and outlive the run when the worker is
// ended. After teardown (every afterAll has run) no child of the worker may still be alive: a file
// that leaves one fails, naming it.
// Only direct children are seen (a program's own children are its to stop), and a zombie has
// exited already (its parent has not yet read its status), so it does not count.
import fs from "node:fs";
import CpuEnvironment from "./cpu-environment.js";

/** The worker's children still running: pid and command line, from /proc. */
export function liveChildren(parentPid = process.pid) {
  let entries;
  try {
    entries = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return []; // not Linux: nothing to check
  }
  const children = [];
  for (const pid of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields after the command name (in parentheses, which may hold spaces): state, ppid.
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) !== parentPid || state === "Z") continue;
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
      children.push({ pid: Number(pid), command });
    } catch {
      // The process exited between the listing and the read.
    }
  }
  return children;
}

export default class TestFileEnvironment extends CpuEnvironment {
  async teardown() {
    await super.teardown();
    // A program stopped by a signal a moment ago may still be on its way out on a loaded machine.
    let left = liveChildren();
    for (let waited = 0; left.length > 0 && waited < 5000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = liveChildren();
    }
    if (left.length > 0) {
      throw new Error(
        `the test file left ${left.length} program(s) running, which the next file in this worker would inherit:\n` +
          left.map((child) => `  ${child.pid} ${child.command.slice(0, 200)}`).join("\n"),
      );
    }
  }
}
