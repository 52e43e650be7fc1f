// Deliveries that no handler gets to count. A signature that does not match is refused by the
// webhook guard (src/http/webhook-guard.ts) before Probot sees it; should one still reach Probot's
// own check, only its error handlers hear of it, and it is counted here. A handler that failed
// (the shared queue could not take the job: GitHub gets a 5xx and may redeliver) is counted too.
// An unverified delivery's event name is whatever its sender wrote in a header, so it is never a
// label value.

export type DeliveryFailure =
  | { readonly event: "unverified"; readonly outcome: "bad_signature" }
  | { readonly event: string; readonly outcome: "failed" };

/** What an error that reached Probot's onError says about the delivery. */
export function deliveryFailure(error: unknown): DeliveryFailure {
  const inner = Array.isArray((error as { errors?: unknown } | null)?.errors)
    ? (error as { errors: unknown[] }).errors
    : [error];
  const badSignature = inner.some((e) => {
    const { status, message } = (e ?? {}) as { status?: unknown; message?: unknown };
    return status === 400 && typeof message === "string" && message.includes("signature does not match");
  });
  if (badSignature) return { event: "unverified", outcome: "bad_signature" };
  const name = (error as { event?: { name?: unknown } } | null)?.event?.name;
  return { event: typeof name === "string" ? name : "unknown", outcome: "failed" };
}
