// A program started detached (its own process group, so that its children stop with it) does not
// end when the process that started it does. tether() ties it to this process: a shell waits for
// the end of a pipe from here, which comes however this process ends (a jest worker force-exited,
// a timeout around jest, SIGKILL), and then kills the program's process group. Without it a test
// server outlives a worker that died before its teardown. Untie (the function returned) once the
// program has exited: the shell ends, and no process is left for the environment's guard.

import { spawn } from "node:child_process";

const WAIT_THEN_KILL =
  'read -r _ || true; kill -s KILL -- "-$0" 2>/dev/null || kill -s KILL "$0" 2>/dev/null';

export function tether(pid: number): () => void {
  const shell = spawn("sh", ["-c", WAIT_THEN_KILL, String(pid)], {
    detached: true, // not in this process's group: a signal to the group must not end the watch
    stdio: ["pipe", "ignore", "ignore"],
  });
  shell.on("error", () => {});
  // Neither the shell nor its pipe keeps this process running.
  shell.unref();
  (shell.stdin as { unref?: () => void } | null)?.unref?.();
  return () => {
    shell.kill("SIGKILL");
  };
}
