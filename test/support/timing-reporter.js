// After a run: the test files that cost the most CPU (user + system, their own process's and the
// programs they started; test/support/cpu-environment.js measures it) with their wall time, so a
// regression in the suite's cost shows in CI's log the day it lands. Also the tier's totals.
//   LOUPE_TEST_SLOWEST=N   how many files to list (default 12; 0 lists none)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export default class TimingReporter {
  #dir;

  constructor() {
    // Set here, before jest starts its workers, so that every worker inherits it.
    this.#dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-test-cpu-"));
    process.env.LOUPE_TEST_CPU_DIR = this.#dir;
  }

  onRunComplete(_contexts, results) {
    const wall = new Map(
      results.testResults.map((r) => [
        path.relative(process.cwd(), r.testFilePath),
        r.perfStats.runtime / 1000,
      ]),
    );
    const rows = [];
    for (const name of fs.readdirSync(this.#dir)) {
      for (const line of fs.readFileSync(path.join(this.#dir, name), "utf8").split("\n")) {
        if (line !== "") rows.push(JSON.parse(line));
      }
    }
    fs.rmSync(this.#dir, { recursive: true, force: true });
    if (rows.length === 0) return;
    const cpu = (r) => r.userSeconds + r.systemSeconds;
    rows.sort((a, b) => cpu(b) - cpu(a));
    const total = rows.reduce((sum, r) => sum + cpu(r), 0);
    const system = rows.reduce((sum, r) => sum + r.systemSeconds, 0);
    const count = Number(process.env.LOUPE_TEST_SLOWEST ?? "12");
    const out = [`\nCPU of ${rows.length} test files: ${total.toFixed(0)} s (${system.toFixed(0)} s system)`];
    if (count > 0) {
      out.push(`The ${Math.min(count, rows.length)} costliest (CPU user + system, wall):`);
      for (const r of rows.slice(0, count)) {
        const seconds = wall.get(r.file);
        out.push(
          `  ${cpu(r).toFixed(1).padStart(6)} s  (${r.userSeconds.toFixed(1)} + ${r.systemSeconds.toFixed(1)})  ` +
            `${seconds === undefined ? "?" : seconds.toFixed(1)} s wall  ${r.file}`,
        );
      }
    }
    process.stdout.write(`${out.join("\n")}\n`);
  }
}
