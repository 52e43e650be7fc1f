// A small pool of repository workers in this process. A review (or a reply) leases one worker from
// its fetch to the disposal of its workspace, because the workspace lives there; a lease waits,
// first come first served, while every worker is leased. Workers start when first needed and stay
// for the next lease; one that ended (out of memory, past a deadline, failed) is replaced by a new
// one on the next lease, and the directory its workspaces were in is removed, since it may have
// been stopped before it could remove them itself. `warm()` starts every slot's worker ahead of
// the first lease (at start-up), so the first review does not wait for a worker to load; a slot
// remembers a start in progress, so a lease racing the warm-up waits for that worker rather than
// starting a second one. The first warm-up also removes the worker directories that stopped
// processes of this host left behind (worker-dirs.ts).

import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { unlimitedGate } from "../jobs/memory-provider-gate.ts";
import type { ProviderGate } from "../llm/provider-gate.ts";
import type { DependencyName } from "../metrics/metrics.ts";
import type { WorkerSetup, WorkKind, WorkRequest, WorkResults } from "./protocol.ts";
import { type DirOwner, sweepAbandonedWorkerDirs, thisProcess, workerDirPrefix } from "./worker-dirs.ts";
import {
  type CallOptions,
  type CallOutcome,
  type StopReason,
  startWorkerThread,
  type WorkerThread,
} from "./worker-thread.ts";

export interface WorkerPoolOptions {
  readonly size: number;
  /** The worker's script (worker-entry.ts names the production one; tests give their own). */
  readonly entry: URL;
  readonly setup: Omit<WorkerSetup, "tmpRoot">;
  readonly memoryMb: number;
  readonly graceMs: number;
  /** Where each worker's directory is made (default: the system temp directory). */
  readonly tmpRoot?: string;
  /** The process's share of the provider (default: no limits, a back-off shared by its workers). */
  readonly gate?: ProviderGate;
  readonly onToolCall?: (tool: string, ok: boolean) => void;
  readonly onDependencyError?: (dependency: DependencyName, kind: string) => void;
  /** Told when a worker ended and will be replaced: why, in one of the named reasons or "failed". */
  readonly onWorkerEnded?: (reason: StopReason | "failed") => void;
}

/** One worker, held from a fetch to its workspace's disposal. */
export interface WorkerLease {
  call<K extends WorkKind>(
    request: Extract<WorkRequest, { kind: K }>,
    options: CallOptions,
  ): Promise<CallOutcome<WorkResults[K]>>;
  /** Gives the worker back (once; later calls do nothing). */
  release(): void;
}

/**
 * What a warm-up did: workers now loaded and waiting, those that could not be started, and the
 * directories of stopped processes it removed (the first warm-up only).
 */
export interface WarmUp {
  readonly ready: number;
  readonly failed: number;
  readonly abandonedDirsRemoved: number;
}

export interface WorkerPool {
  /** Starts every slot's worker not yet running and waits until each has loaded; never rejects. */
  warm(): Promise<WarmUp>;
  /** A worker of its own for one review or reply; rejects with the signal's reason if aborted while waiting. */
  acquire(signal?: AbortSignal): Promise<WorkerLease>;
  /** Ends every worker and removes their directories; leases waiting are refused. */
  close(): Promise<void>;
}

interface Slot {
  thread: WorkerThread | null;
  /** A start in progress (its directory being made, its worker created), shared by whoever asks. */
  starting: Promise<WorkerThread> | null;
  dir: string | null;
  busy: boolean;
}

interface Waiter {
  readonly take: (slot: Slot) => void;
  readonly refuse: (reason: unknown) => void;
}

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const slots: Slot[] = Array.from({ length: options.size }, () => ({
    thread: null,
    starting: null,
    dir: null,
    busy: false,
  }));
  const waiting: Waiter[] = [];
  let closed = false;
  const tmpRoot = options.tmpRoot ?? os.tmpdir();
  const owner = thisProcess();
  let swept = false;
  const threads = slotThreads({ ...options, tmpRoot, owner }, () => closed);
  const release = (slot: Slot): void => {
    if (slot.thread !== null && !slot.thread.alive()) void threads.discard(slot);
    const next = waiting.shift();
    if (next === undefined) slot.busy = false;
    else next.take(slot);
  };
  const lease = (slot: Slot): WorkerLease => leaseOn(slot, threads.spawn, release);
  return {
    warm: async () => {
      const sweep = swept ? Promise.resolve(0) : sweepAbandonedWorkerDirs({ tmpRoot, self: owner });
      swept = true;
      const loaded = await Promise.all(
        slots.map((slot) =>
          threads.spawn(slot).then(
            (thread) => thread.ready(),
            () => false,
          ),
        ),
      );
      const ready = loaded.filter(Boolean).length;
      return { ready, failed: loaded.length - ready, abandonedDirsRemoved: await sweep };
    },
    acquire: async (signal) => {
      if (closed) throw new Error("the repository worker pool is closed");
      signal?.throwIfAborted();
      const free = slots.find((slot) => !slot.busy);
      if (free === undefined) return lease(await nextFreeSlot(waiting, signal));
      free.busy = true;
      return lease(free);
    },
    close: async () => {
      closed = true;
      for (const waiter of waiting.splice(0))
        waiter.refuse(new Error("the repository worker pool is closed"));
      await Promise.all(
        slots.map(async (slot) => {
          await slot.starting?.catch(() => undefined);
          await slot.thread?.close();
          await threads.discard(slot);
        }),
      );
    },
  };
}

/** Starting a slot's worker (in a directory of its own), and forgetting a dead one. */
function slotThreads(
  options: WorkerPoolOptions & { readonly tmpRoot: string; readonly owner: DirOwner },
  closed: () => boolean,
) {
  const gate = options.gate ?? unlimitedGate();
  const discard = async (slot: Slot): Promise<void> => {
    const dir = slot.dir;
    slot.thread = null;
    slot.dir = null;
    if (dir !== null) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  };
  const start = async (slot: Slot): Promise<WorkerThread> => {
    await discard(slot);
    const dir = await mkdtemp(path.join(options.tmpRoot, workerDirPrefix(options.owner)));
    if (closed()) {
      await rm(dir, { recursive: true, force: true });
      throw new Error("the repository worker pool is closed");
    }
    slot.dir = dir;
    slot.thread = startWorkerThread({
      entry: options.entry,
      setup: { ...options.setup, tmpRoot: dir },
      memoryMb: options.memoryMb,
      graceMs: options.graceMs,
      gate,
      onToolCall: options.onToolCall ?? (() => {}),
      ...(options.onDependencyError ? { onDependencyError: options.onDependencyError } : {}),
      onExit: (reason) => {
        if (!closed()) options.onWorkerEnded?.(reason ?? "failed");
      },
    });
    return slot.thread;
  };
  const spawn = (slot: Slot): Promise<WorkerThread> => {
    if (slot.thread?.alive() === true) return Promise.resolve(slot.thread);
    slot.starting ??= start(slot).finally(() => {
      slot.starting = null;
    });
    return slot.starting;
  };
  return { spawn, discard };
}

/** A lease on a slot: its worker is started by the first call, if it is not running already. */
function leaseOn(
  slot: Slot,
  spawn: (slot: Slot) => Promise<WorkerThread>,
  release: (slot: Slot) => void,
): WorkerLease {
  let released = false;
  let thread: Promise<WorkerThread> | null = null;
  return {
    call: async (request, callOptions) => {
      if (released) throw new Error("a released worker lease was used");
      thread ??= spawn(slot);
      return (await thread).call(request, callOptions);
    },
    release: () => {
      if (released) return;
      released = true;
      release(slot);
    },
  };
}

/** Waits, first come first served, for a slot a lease gives back. */
function nextFreeSlot(waiting: Waiter[], signal: AbortSignal | undefined): Promise<Slot> {
  return new Promise<Slot>((resolve, reject) => {
    const onAbort = (): void => {
      const at = waiting.indexOf(waiter);
      if (at !== -1) waiting.splice(at, 1);
      reject(signal?.reason);
    };
    const waiter: Waiter = {
      take: (slot) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(slot);
      },
      refuse: (reason) => {
        signal?.removeEventListener("abort", onAbort);
        reject(reason);
      },
    };
    waiting.push(waiter);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
