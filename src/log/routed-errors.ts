// With REDIS_URL, Probot shares GitHub's rate-limit throttling between replicas through a
// Bottleneck connection of its own to that Redis, and logs every error of it as an error line —
// one per reconnection attempt while Redis is away, none of which Loupe could listen to. Those
// errors carry `source: "bottleneck"`; once something watches Redis's state (the fleet's one
// "down / still down / up" account), they go there instead of becoming lines of their own.

type ErrorRoute = (error: Error) => void;

let bottleneckRoute: ErrorRoute | null = null;

/** Where Probot's Bottleneck errors go from now on (the process's Redis state). */
export function routeBottleneckErrors(route: ErrorRoute): void {
  bottleneckRoute = route;
}

/** Whether a log call's arguments were a Bottleneck error, now handed to its route. */
export function tookRoutedError(args: readonly unknown[]): boolean {
  const [first] = args;
  if (bottleneckRoute === null || !(first instanceof Error)) return false;
  if ((first as { source?: unknown }).source !== "bottleneck") return false;
  bottleneckRoute(first);
  return true;
}
