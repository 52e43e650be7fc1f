// The matches of one search_repository call and its result: one match per line, each with an
// excerpt of at most 200 characters around the match, taken until `limit` or until the result's
// serialized size would pass its cap. A search cut short by its budget says where it stopped
// (`stopped_at`), making room for that by giving up its last matches if it must.

import { sliceSafely } from "../workspace/text.ts";
import type { ToolLimits } from "./limits.ts";
import { utf8Length } from "./result.ts";
import type { SearchStop } from "./search-budget.ts";
import type { ToolResult } from "./types.ts";

export const MAX_EXCERPT_CHARS = 200;

interface Match {
  readonly path: string;
  readonly line: number;
  readonly excerpt: string;
}

/** Where a search stopped short of its scope, for the model to narrow `path` and go on. */
export interface StoppedAt {
  readonly path: string;
  /** The first line of `path` not searched. */
  readonly line: number;
  /** Files not searched to their end, `path` included. */
  readonly files_left: number;
  readonly reason: SearchStop;
}

export function excerptAround(line: string, index: number, query: string): string {
  if (line.length <= MAX_EXCERPT_CHARS) {
    const trimmed = line.trim();
    return trimmed.includes(query) ? trimmed : line;
  }
  if (query.length >= MAX_EXCERPT_CHARS) return sliceSafely(line, index, index + MAX_EXCERPT_CHARS);
  const before = Math.floor((MAX_EXCERPT_CHARS - query.length) / 2);
  const end = Math.min(line.length, Math.max(0, index - before) + MAX_EXCERPT_CHARS);
  return sliceSafely(line, end - MAX_EXCERPT_CHARS, end);
}

export class Matches {
  private readonly query: string;
  private readonly path: string;
  private readonly limit: number;
  private readonly matches: Match[] = [];
  private readonly costs: number[] = [];
  private room: number;
  private truncated = false;

  constructor(query: string, path: string, limit: number, limits: ToolLimits) {
    this.query = query;
    this.path = path;
    this.limit = limit;
    const envelope = { ok: true, query, path, matches: [], truncated: true };
    this.room = limits.maxResultBytes - utf8Length(JSON.stringify(envelope));
  }

  /** Takes the match at UTF-16 `index` of `text`, line `line` of `path`; false once no more fit. */
  add(path: string, line: number, text: string, index: number): boolean {
    const match = { path, line, excerpt: excerptAround(text, index, this.query) };
    const cost = utf8Length(JSON.stringify(match)) + 1;
    if (this.matches.length === this.limit || cost > this.room) {
      this.truncated = true;
      return false;
    }
    this.matches.push(match);
    this.costs.push(cost);
    this.room -= cost;
    return true;
  }

  result(stopped: StoppedAt | null): ToolResult {
    const base = { ok: true, query: this.query, path: this.path, matches: this.matches } as const;
    if (stopped === null) return { ...base, truncated: this.truncated };
    const cost = utf8Length(JSON.stringify({ stopped_at: stopped })) - 1;
    while (cost > this.room && this.matches.length > 0) {
      this.matches.pop();
      this.room += this.costs.pop()!;
    }
    return { ...base, truncated: true, stopped_at: stopped };
  }
}
