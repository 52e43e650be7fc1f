// Jest's node environment, plus one measurement: the CPU a test file cost, its own process's and
// that of the programs it started (git, git-http-backend, redis-server, the CLI, Chromium). The
// suite is CPU-bound on two cores, so CPU (user + system), not wall time, says which files to make
// cheaper; wall time on a shared machine mostly says what else was running.
// Read from /proc/self/stat at setup and after teardown (every afterAll has run by then, so the
// servers a file stopped are reaped and counted): utime, stime, and cutime, cstime (children that
// were waited for). Written as one JSON line per file into LOUPE_TEST_CPU_DIR when the timing
// reporter (test/support/timing-reporter.js) set it; elsewhere nothing is written.
import fs from "node:fs";
import path from "node:path";
import { TestEnvironment } from "jest-environment-node";

const TICKS_PER_SECOND = 100; // Linux's USER_HZ on every architecture Node supports

function cpuTicks() {
  try {
    // The fields after the command name (which is in parentheses and may hold spaces).
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const at = (n) => Number(fields[n - 3]); // fields are numbered from 1; 1 and 2 are cut off
    return { user: at(14) + at(16), system: at(15) + at(17) };
  } catch {
    return null; // not Linux: no accounting
  }
}

export default class CpuEnvironment extends TestEnvironment {
  #testPath;
  #start = null;

  constructor(config, context) {
    super(config, context);
    this.#testPath = context.testPath;
  }

  async setup() {
    this.#start = cpuTicks();
    await super.setup();
  }

  async teardown() {
    await super.teardown();
    const dir = process.env.LOUPE_TEST_CPU_DIR;
    const end = cpuTicks();
    if (!dir || this.#start === null || end === null) return;
    const line = {
      file: path.relative(process.cwd(), this.#testPath),
      userSeconds: (end.user - this.#start.user) / TICKS_PER_SECOND,
      systemSeconds: (end.system - this.#start.system) / TICKS_PER_SECOND,
    };
    fs.appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
  }
}
