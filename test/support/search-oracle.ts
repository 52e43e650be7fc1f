// search_repository by its definition, for differential tests: decode each text file whole (NUL
// in the first 8,000 bytes or invalid UTF-8: skipped; a leading BOM dropped), split it into git's
// lines (CR of a CRLF, or a last CR, removed), and take the first indexOf of the query in each
// line, with its excerpt. Files in path order, no limit.

import { excerptAround } from "../../src/tools/search-matches.ts";

export interface OracleMatch {
  readonly path: string;
  readonly line: number;
  readonly excerpt: string;
}

export function searchOracle(tree: Readonly<Record<string, Uint8Array>>, query: string): OracleMatch[] {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const out: OracleMatch[] = [];
  for (const path of Object.keys(tree).sort()) {
    const bytes = tree[path]!;
    if (bytes.subarray(0, 8000).includes(0)) continue;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      continue;
    }
    const lines = text === "" ? [] : text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    lines.forEach((raw, index) => {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      const at = line.indexOf(query);
      if (at >= 0) out.push({ path, line: index + 1, excerpt: excerptAround(line, at, query) });
    });
  }
  return out;
}
