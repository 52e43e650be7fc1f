// The cost tests' measure: CPU time (user + system) of this process, never wall time, so a busy
// machine cannot fail them, and the median of three runs, so one collection or slow run does not.

/** The median CPU time, in ms, of three calls of `run`. */
export function medianCpuMs(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const before = process.cpuUsage();
    run();
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[1]!;
}
