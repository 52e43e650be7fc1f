// Each repository worker works in a directory of its own under the temp directory; the pool
// removes it when the worker ends or the pool closes. A process that is killed (SIGKILL, the OOM
// killer, a crash) cannot, and its directories may hold a review's fetched packs. So each
// directory's name says which process made it, on which host, and a new pool removes those whose
// process is gone. The host is in the name because containers that share a temp directory may
// each have their own process ids: a process id is only asked about on the host that gave it.
// A token drawn once per process is in it too: a container's server runs as process 1 in every
// incarnation, and a restarted container keeps its temp directory, so "process 1 still runs"
// would keep the killed incarnation's directories forever; one with this process's id and another
// token is a previous process's. A process id the system has since given to another process keeps
// its directory (a leak until that process ends, never a live worker's directory removed).
// Directories of older forms (`loupe-worker-XXXXXX`) say nothing of their owner and are left alone.

import { randomBytes } from "node:crypto";
import { readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const WORKER_DIR_PREFIX = "loupe-worker-";

/** The process a worker directory belongs to. */
export interface DirOwner {
  readonly host: string;
  readonly pid: number;
  /** Drawn once per process: tells this process from an earlier one that had its id. */
  readonly token: string;
}

const PROCESS_TOKEN = randomBytes(4).toString("hex");

/** This process, on this host. */
export function thisProcess(): DirOwner {
  return { host: os.hostname(), pid: process.pid, token: PROCESS_TOKEN };
}

/** The start of a worker directory's name, for mkdtemp (which adds six characters). */
export function workerDirPrefix(owner: DirOwner): string {
  return `${WORKER_DIR_PREFIX}${safeHost(owner.host)}-${owner.pid}-${owner.token}-`;
}

/** Host names are letters, digits, dots and hyphens; anything else could not be told apart. */
function safeHost(host: string): string {
  return host.replace(/[^A-Za-z0-9.-]/g, "_").slice(0, 64) || "_";
}

/** The owner a directory's name records, or null for a name of another form. */
export function ownerOfWorkerDir(name: string): DirOwner | null {
  const named = /^loupe-worker-([A-Za-z0-9._-]+)-(\d{1,10})-([0-9a-f]{8})-[A-Za-z0-9]{6}$/.exec(name);
  if (named === null) return null;
  const pid = Number(named[2]);
  return Number.isSafeInteger(pid) && pid > 0 ? { host: named[1]!, pid, token: named[3]! } : null;
}

/** Whether a process with this id runs on this host (one that is not ours to signal still runs). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface SweepOptions {
  readonly tmpRoot: string;
  readonly self: DirOwner;
}

/** Whether a directory of `owner` outlived its process: this process's own never did. */
function abandoned(owner: DirOwner, self: DirOwner): boolean {
  if (owner.pid === self.pid) return owner.token !== self.token;
  return !processRuns(owner.pid);
}

/**
 * Removes the worker directories that processes of this host left behind when they stopped
 * without removing them; returns how many. Never throws: a directory it cannot read or remove is
 * left for the next start.
 */
export async function sweepAbandonedWorkerDirs(options: SweepOptions): Promise<number> {
  const host = safeHost(options.self.host);
  let names: string[];
  try {
    names = await readdir(options.tmpRoot);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const owner = ownerOfWorkerDir(name);
    if (owner === null || owner.host !== host || !abandoned(owner, options.self)) continue;
    try {
      await rm(path.join(options.tmpRoot, name), { recursive: true, force: true });
      removed += 1;
    } catch {
      // Not ours to remove after all (permissions): the next start tries again.
    }
  }
  return removed;
}
