// Whether a person may write to a repository, remembered for a short time per (forge and App
// installation, repository, person): a burst of commands or thread replies costs one lookup, and a permission
// taken away counts within the minute. Bounded (the oldest answers go first) and on an injected
// clock. Only answers are kept: a lookup that failed is asked again next time.

import { accountKey, type ForgeTag } from "../domain/review-request.ts";

export const PERMISSION_TTL_MS = 60_000;
export const PERMISSION_CACHE_ENTRIES = 1_000;

export type PermissionKey = ForgeTag & {
  readonly owner: string;
  readonly repo: string;
  readonly login: string;
};

export interface PermissionCacheOptions {
  readonly ttlMs?: number;
  readonly maxEntries?: number;
  readonly now?: () => number;
}

export interface PermissionCache {
  /** The cached answer, or `ask()`'s (cached when it resolves; a rejection is passed on). */
  canWrite(key: PermissionKey, ask: () => Promise<boolean>): Promise<boolean>;
}

/** Logins and repository names are case-insensitive (GitHub's, GitLab's paths). */
const keyOf = (k: PermissionKey) =>
  `${accountKey(k)}\n${k.owner.toLowerCase()}/${k.repo.toLowerCase()}\n${k.login.toLowerCase()}`;

export function createPermissionCache(options: PermissionCacheOptions = {}): PermissionCache {
  const ttlMs = options.ttlMs ?? PERMISSION_TTL_MS;
  const maxEntries = options.maxEntries ?? PERMISSION_CACHE_ENTRIES;
  const now = options.now ?? Date.now;
  const answers = new Map<string, { readonly writer: boolean; readonly until: number }>();
  return {
    async canWrite(key, ask) {
      const id = keyOf(key);
      const cached = answers.get(id);
      if (cached !== undefined && cached.until > now()) return cached.writer;
      answers.delete(id);
      const writer = await ask();
      answers.delete(id); // re-inserted last: the Map's order is the eviction order
      answers.set(id, { writer, until: now() + ttlMs });
      while (answers.size > maxEntries) answers.delete(answers.keys().next().value!);
      return writer;
    },
  };
}
