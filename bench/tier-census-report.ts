// The report of tier-census.sh: each recorded process's CPU (dump-acct's user and system times, in
// the accounting's 1/100 s) under the program it ran (its last successful execve in strace's
// record, joined by pid), grouped so that the rows name what a tier starts: Loupe's server, a jest
// worker, `loupe <command>`, `npm <command>`, `git <command>`, or the program's own name. A
// process that never ran a program of its own (forked, or started before strace) keeps the
// accounting's name, marked `?`.
//   node bench/tier-census-report.ts EXEC_RECORD ACCT_DUMP [ROWS]

import fs from "node:fs";
import path from "node:path";

const [execFile, acctFile, rowsArg] = process.argv.slice(2);
if (execFile === undefined || acctFile === undefined) {
  process.stderr.write("usage: node bench/tier-census-report.ts EXEC_RECORD ACCT_DUMP [ROWS]\n");
  process.exit(2);
}
const ROWS = Number(rowsArg ?? 30);
const ACCOUNTING_HZ = 100;

/** pid → argv of the last program it ran (a call strace printed in two pieces included). */
function programs(record: string): Map<number, string[]> {
  const byPid = new Map<number, string[]>();
  const pending = new Map<number, string[]>();
  const argvOf = (list: string) => [...list.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((arg) => arg[1]!);
  for (const line of record.split("\n")) {
    const call =
      /^(\d+)\s+execve\("(?:[^"\\]|\\.)*", \[(.*?)\](?:, 0x[0-9a-f]+ \/\* \d+ vars? \*\/)?(\) = 0| <unfinished \.\.\.>)/.exec(
        line,
      );
    if (call !== null) {
      const pid = Number(call[1]);
      if (call[3] === ") = 0") byPid.set(pid, argvOf(call[2]!));
      else pending.set(pid, argvOf(call[2]!));
      continue;
    }
    // Another process's call came between: strace ends this one on a line of its own.
    const resumed = /^(\d+)\s+<\.\.\. execve resumed>\)\s*= (-?\d+)/.exec(line);
    if (resumed === null) continue;
    const pid = Number(resumed[1]);
    const argv = pending.get(pid);
    pending.delete(pid);
    if (argv !== undefined && resumed[2] === "0") byPid.set(pid, argv);
  }
  return byPid;
}

/** The first operand of a command line, past its options and the values `-c` and `-C` take. */
function firstOperand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-c" || args[i] === "-C") i++;
    else if (!args[i]!.startsWith("-")) return args[i];
  }
  return undefined;
}
/** What a row is called: the program, and for the programs a tier starts often, what it ran. */
function groupOf(argv: readonly string[]): string {
  const program = path.basename(argv[0] ?? "?");
  const rest = argv.slice(1);
  if (program === "git") return `git ${firstOperand(rest)}`;
  if (program !== "node" && !program.startsWith("node")) return program;
  const script = firstOperand(rest) ?? "";
  const command = rest[rest.indexOf(script) + 1] ?? "";
  if (script.endsWith("src/server.ts")) return "Loupe server (src/server.ts)";
  if (script.includes("jest-worker")) return "jest worker";
  if (/(^|\/)(bin\/loupe\.js|src\/cli\.ts)$/.test(script)) return `loupe ${command}`;
  if (script.endsWith("dist-action/index.js")) return "the Action (dist-action/index.js)";
  if (/npm(-cli\.js)?$/.test(script)) return `npm ${command}`;
  return `node ${path.basename(script)}`;
}

const byPid = programs(fs.readFileSync(execFile, "utf8"));
const groups = new Map<string, { count: number; seconds: number }>();
let total = 0;
let measuring = 0;
for (const line of fs.readFileSync(acctFile, "utf8").split("\n")) {
  const fields = line.split("|").map((field) => field.trim());
  if (fields.length < 11) continue;
  const seconds = (Number(fields[2]) + Number(fields[3])) / ACCOUNTING_HZ;
  const argv = byPid.get(Number(fields[9]));
  const group = argv === undefined ? `?${fields[0]}` : groupOf(argv);
  if (fields[0] === "strace") {
    measuring += seconds;
    continue;
  }
  const row = groups.get(group) ?? { count: 0, seconds: 0 };
  groups.set(group, { count: row.count + 1, seconds: row.seconds + seconds });
  total += seconds;
}
const rows = [...groups].sort((a, b) => b[1].seconds - a[1].seconds).slice(0, ROWS);
process.stdout.write(
  `CPU of every process that ended: ${total.toFixed(0)} s, and strace's own ${measuring.toFixed(0)} s\n`,
);
process.stdout.write("    CPU s  share  processes  program\n");
for (const [group, { count, seconds }] of rows) {
  process.stdout.write(
    `${seconds.toFixed(1).padStart(9)}  ${((100 * seconds) / total).toFixed(0).padStart(4)} %  ${String(count).padStart(9)}  ${group}\n`,
  );
}
