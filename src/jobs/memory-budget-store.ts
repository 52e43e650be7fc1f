// The budget store of a single Loupe process: counters in memory, each change written whole to
// `budget.json` in LOUPE_STATE_DIR (through a temporary file and a rename) so that a restart does
// not hand out a day's budget twice. A fleet counts in Redis instead (fleet/redis-budget-store.ts).
// Reservations are decided synchronously, so two reviews of this process cannot both take the
// last of a cap; writes are chained one at a time.

import { readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { type BudgetCounter, type BudgetStore, grantFrom, unitsOf } from "../domain/budget.ts";

const FILE = "budget.json";

interface Counter {
  value: number;
  readonly resetsAt: number;
}

export function createMemoryBudgetStore(options: {
  stateDir: string | null;
  now?: () => number;
}): BudgetStore {
  const now = options.now ?? Date.now;
  const file = options.stateDir === null ? null : path.join(options.stateDir, FILE);
  const counters = new Map<string, Counter>(file === null ? [] : load(file));
  let writing: Promise<void> = Promise.resolve();
  /** Alerts already said in this process (a restart may say one again: it has no fleet to ask). */
  const claims = new Map<string, number>();

  const live = (key: string): Counter | undefined => {
    const counter = counters.get(key);
    if (counter !== undefined && counter.resetsAt <= now()) {
      counters.delete(key);
      return undefined;
    }
    return counter;
  };
  const add = (counter: BudgetCounter, amount: number) => {
    const held = live(counter.key) ?? { value: 0, resetsAt: counter.resetsAt };
    held.value = Math.max(0, held.value + amount);
    counters.set(counter.key, held);
  };
  const save = (): Promise<void> => {
    if (file === null) return Promise.resolve();
    const snapshot = JSON.stringify([...counters].filter(([, c]) => c.resetsAt > now()));
    writing = writing.then(async () => {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(`${file}.tmp`, snapshot);
      await rename(`${file}.tmp`, file);
    });
    return writing;
  };

  return {
    async reserve(list, want, dollarsPerToken) {
      const spent = list.map((c) => live(c.key)?.value ?? 0);
      const grant = grantFrom(spent, list, want, dollarsPerToken);
      if (grant.kind === "granted") {
        const amounts = unitsOf(list, grant.tokens, grant.tokens * dollarsPerToken);
        for (const [i, counter] of list.entries()) add(counter, amounts[i]!);
        await save();
      }
      return grant;
    },
    async adjust(list, amounts) {
      for (const [i, counter] of list.entries()) add(counter, amounts[i] ?? 0);
      await save();
      return list.map((counter) => live(counter.key)?.value ?? 0);
    },
    async claim(key, resetsAt) {
      for (const [held, until] of claims) if (until <= now()) claims.delete(held);
      if (claims.has(key)) return false;
      claims.set(key, resetsAt);
      return true;
    },
  };
}

/** The counters a previous process saved; a missing or damaged file starts from nothing. */
function load(file: string): [string, Counter][] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (entry): entry is [string, Counter] =>
        Array.isArray(entry) &&
        typeof entry[0] === "string" &&
        typeof entry[1]?.value === "number" &&
        typeof entry[1]?.resetsAt === "number",
    );
  } catch {
    return [];
  }
}
