// Webhook deliveries already answered that the queue could not take yet (Redis away): held in
// this process's memory, in arrival order, and handed to the queue again until it takes them.
// GitLab never delivers an event again by itself, so an event answered and then dropped would be
// lost; answering 5xx instead only counts a failure on GitLab's side and disables the hook after
// four in a row. Memory, not the state directory: an event is held only while the shared queue's
// Redis is away (its own restart, a failover), the process keeps running meanwhile, and the state
// directory is optional and one process's own. The bound keeps a long outage from growing the
// heap: past it the oldest held delivery is dropped with an error line naming it. On shutdown
// every delivery still held is named in one error line each, so none is lost silently.

import { errorDetail } from "../log/error-detail.ts";
import type { Logger } from "../log/job-logger.ts";

export const MAX_HELD_DELIVERIES = 1000;
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

export interface HeldDeliveriesOptions<T> {
  /** Takes one delivery to the queue; rejects with an error `unavailable` says to hold. */
  readonly handle: (delivery: T) => Promise<void>;
  readonly unavailable: (error: unknown) => boolean;
  /** What a log line says of a delivery (its merge request, its note). */
  readonly describe: (delivery: T) => object;
  readonly log: Pick<Logger, "warn" | "error" | "info">;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly maxHeld?: number;
  /** Called for a delivery the queue did not take at first (for the metrics). */
  readonly onHeld?: (delivery: T) => void;
}

export interface HeldDeliveries<T> {
  /** Handles a delivery now, or holds it behind those already held (their order is kept). */
  take(delivery: T): void;
  held(): number;
  /** Resolves once nothing is being handled and nothing is held. */
  idle(): Promise<void>;
  /** Stops retrying; each delivery still held is named in an error line. */
  close(): void;
}

const defaultSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

export function createHeldDeliveries<T>(options: HeldDeliveriesOptions<T>): HeldDeliveries<T> {
  const sleep = options.sleep ?? defaultSleep;
  const maxHeld = options.maxHeld ?? MAX_HELD_DELIVERIES;
  const held: T[] = [];
  let inHand = 0;
  let retrying: Promise<void> | null = null;
  let closed = false;
  const waiters: (() => void)[] = [];

  const settleWaiters = () => {
    // Once closed, a retry asleep is not waited for: nothing it holds is handed over any more.
    if (inHand > 0 || (!closed && (held.length > 0 || retrying !== null))) return;
    for (const wake of waiters.splice(0)) wake();
  };

  const hold = (delivery: T, error: unknown) => {
    if (held.length === 0)
      options.log.warn(
        { ...options.describe(delivery), error: errorDetail(error) },
        "the queue cannot take a webhook now: it is held in memory and handed over when the queue is back",
      );
    held.push(delivery);
    options.onHeld?.(delivery);
    if (held.length > maxHeld) {
      const dropped = held.shift() as T;
      options.log.error(
        { ...options.describe(dropped), held: maxHeld },
        "webhook lost: too many held while the queue is away (ask for a review again on the merge request)",
      );
    }
    retrying ??= retry().finally(() => {
      retrying = null;
      settleWaiters();
    });
  };

  const retry = async (): Promise<void> => {
    let wait = FIRST_RETRY_MS;
    while (held.length > 0 && !closed) {
      await sleep(wait);
      if (closed) return;
      const next = held[0] as T;
      try {
        await options.handle(next);
        held.shift();
        wait = FIRST_RETRY_MS;
        if (held.length === 0) options.log.info({}, "every held webhook is in the queue");
      } catch (error) {
        if (options.unavailable(error)) wait = Math.min(wait * 2, MAX_RETRY_MS);
        else {
          held.shift();
          options.log.error(
            { ...options.describe(next), error: errorDetail(error) },
            "held webhook not handled",
          );
        }
      }
    }
  };

  return {
    take(delivery) {
      if (closed)
        return void options.log.error(options.describe(delivery), "webhook lost: Loupe is stopping");
      if (held.length > 0) return void hold(delivery, new Error("earlier deliveries are held"));
      inHand++;
      void options
        .handle(delivery)
        .catch((error: unknown) => {
          if (options.unavailable(error)) hold(delivery, error);
          else
            options.log.error(
              { ...options.describe(delivery), error: errorDetail(error) },
              "webhook not handled",
            );
        })
        .finally(() => {
          inHand--;
          settleWaiters();
        });
    },
    held: () => held.length,
    idle() {
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
        settleWaiters();
      });
    },
    close() {
      closed = true;
      for (const delivery of held.splice(0))
        options.log.error(
          options.describe(delivery),
          "webhook lost: Loupe stopped while the queue was away (ask for a review again on the merge request)",
        );
      settleWaiters();
    },
  };
}
