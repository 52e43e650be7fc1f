// What the *-vs-checkout benches share: a module of another checkout of Loupe (the commit before a
// change, as `git worktree add /tmp/before <commit>` with node_modules linked), and the two codes'
// CPU time side by side in one process, alternating, as medians.

import fs from "node:fs";
import path from "node:path";

/** The module at `relativePath` in the checkout `checkout`; exits 2 with `usage` when there is none. */
export async function importFromCheckout<T>(
  checkout: string | undefined,
  relativePath: string,
  usage: string,
): Promise<T> {
  const file = path.join(path.resolve(checkout ?? ""), relativePath);
  if (checkout === undefined || !fs.existsSync(file)) {
    process.stderr.write(`usage: ${usage}\n`);
    process.exit(2);
  }
  return (await import(file)) as T;
}

/** CPU time (user + system) of one call, in ms. */
export function cpuMsOf(run: () => unknown): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** `rounds` rounds, the other checkout's code then this one's; prints the medians and their ratio. */
export function sideBySide(label: string, rounds: number, other: () => unknown, here: () => unknown): void {
  const theirs: number[] = [];
  const ours: number[] = [];
  for (let round = 0; round < rounds; round++) {
    theirs.push(cpuMsOf(other));
    ours.push(cpuMsOf(here));
  }
  const ratio = median(ours) / median(theirs);
  process.stdout.write(
    `${label}: other ${median(theirs).toFixed(0)} ms, here ${median(ours).toFixed(0)} ms, here / other ${ratio.toFixed(2)}\n`,
  );
}
