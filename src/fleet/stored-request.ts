// Jobs wait in Redis across a deploy: a job the previous version queued is read in today's shape.
// Before requests carried their forge, GitHub's had no `forge` and GitLab's carried an
// installation id of 0; their queue keys were the same as today's (domain/review-request.ts).

import type { ForgeTag } from "../domain/review-request.ts";

/** A request as either version stored it. */
type Stored<T extends ForgeTag> =
  | T
  | (Omit<T, "forge" | "installationId"> & { readonly forge?: "gitlab"; readonly installationId?: number });

export function storedRequest<T extends ForgeTag>(stored: Stored<T>): T {
  if (stored.forge === "github") return stored as T;
  const { forge, installationId, ...rest } = stored as { forge?: "gitlab"; installationId?: number };
  const tag: ForgeTag =
    forge === "gitlab" ? { forge } : { forge: "github", installationId: installationId ?? Number.NaN };
  return { ...rest, ...tag } as T;
}
