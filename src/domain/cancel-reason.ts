// Why a running review was aborted: a plain value carried by its AbortSignal, so the pipeline can
// tell a cancellation (its check run says which) from a failure, wherever the job runs.

/** Why a running job was aborted; the check run's text says which. */
export type CancelReason =
  | { readonly kind: "superseded"; readonly headSha: string }
  | { readonly kind: "shutdown" }
  /** This replica stops; the job goes back to the shared queue and another replica finishes it. */
  | { readonly kind: "handback" };

export function isCancelReason(value: unknown): value is CancelReason {
  if (typeof value !== "object" || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return kind === "superseded" || kind === "shutdown" || kind === "handback";
}
