// The organisation's file, kept per installation and owner for a short time to live
// (ORG_CONFIG_TTL_SECONDS), so a burst of reviews across an organisation's repositories reads it
// once; a push to `<owner>/.github`'s default branch forgets it at once (on the replica that
// received the webhook; other replicas within the time to live). Concurrent reads share one
// request; a failed read is not kept.

import type { ConfigFile } from "../../config/config-file-read.ts";

export interface OrganisationConfigCache {
  read(
    key: { readonly installationId: number; readonly owner: string },
    load: () => Promise<ConfigFile | null>,
  ): Promise<ConfigFile | null>;
  /** A push changed the organisation's repository: the next review reads it again. */
  invalidate(key: { readonly installationId: number; readonly owner: string }): void;
}

/** Installations and owners kept at once; past it the oldest entry goes first. */
export const MAX_CACHED_ORGANISATIONS = 1000;

export function createOrganisationConfigCache(options: {
  readonly ttlMs: number;
  readonly now: () => number;
}): OrganisationConfigCache {
  const entries = new Map<
    string,
    { readonly expiresAt: number; readonly value: Promise<ConfigFile | null> }
  >();
  const keyOf = (key: { installationId: number; owner: string }) =>
    `${key.installationId}/${key.owner.toLowerCase()}`;
  return {
    read(key, load) {
      const id = keyOf(key);
      const now = options.now();
      const held = entries.get(id);
      if (held !== undefined && held.expiresAt > now) return held.value;
      entries.delete(id);
      const value = load();
      if (options.ttlMs <= 0) return value;
      entries.set(id, { expiresAt: now + options.ttlMs, value });
      value.catch(() => {
        if (entries.get(id)?.value === value) entries.delete(id);
      });
      while (entries.size > MAX_CACHED_ORGANISATIONS) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
      return value;
    },
    invalidate(key) {
      entries.delete(keyOf(key));
    },
  };
}
