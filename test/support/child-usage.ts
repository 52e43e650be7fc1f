// What a child process (and every descendant it waited for) cost: wall time, CPU time (user +
// system) and peak resident set, read from GNU time's report. Used to compare Loupe with native
// git side by side: CPU time is what a shared machine's load disturbs least.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface ChildUsage {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssMb: number;
  readonly status: number | null;
  readonly stdout: string;
}

export const GNU_TIME = "/usr/bin/time";

/** Asynchronous, so that a server in this process (a git server under test) keeps answering. */
export async function runMeasured(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; okStatuses?: readonly number[] } = {},
): Promise<ChildUsage> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "loupe-usage-"));
  const report = path.join(dir, "time.txt");
  try {
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        const running = spawn(GNU_TIME, ["-f", "%e %U %S %M", "-o", report, command, ...args], {
          cwd: options.cwd,
          env: options.env ?? process.env,
          stdio: ["ignore", "pipe", "pipe"],
        });
        const stdout: Buffer[] = [];
        const stderr: Buffer[] = [];
        running.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
        running.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
        running.on("error", reject);
        running.on("close", (status) =>
          resolve({
            status,
            stdout: Buffer.concat(stdout).toString(),
            stderr: Buffer.concat(stderr).toString(),
          }),
        );
      },
    );
    const ok = options.okStatuses ?? [0];
    if (result.status === null || !ok.includes(result.status)) {
      throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr.slice(-2000)}`);
    }
    // GNU time prefixes "Command exited with non-zero status N" when the child failed.
    const last = readFileSync(report, "utf8").trim().split("\n").at(-1) ?? "";
    const [wall, user, system, rssKb] = last.split(" ").map(Number);
    if ([wall, user, system, rssKb].some((n) => n === undefined || !Number.isFinite(n))) {
      throw new Error(`unreadable ${GNU_TIME} report: ${JSON.stringify(last)}`);
    }
    return {
      wallMs: wall! * 1000,
      cpuMs: (user! + system!) * 1000,
      peakRssMb: rssKb! / 1024,
      status: result.status,
      stdout: result.stdout,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
