// Scans a decoded file line by line for a query that holds a lone surrogate (it has no UTF-8 form,
// so it cannot be looked for in the bytes): the search of search-file.ts for that case, with the
// same budget and slices, and a linear matcher over code units (literal-units.ts).

import type { ScanStats } from "./literal-bytes.ts";
import type { UnitLiteral } from "./literal-units.ts";
import type { TextContent } from "./repository-file.ts";
import type { SearchBudget } from "./search-budget.ts";
import type { FileScanEnd } from "./search-file.ts";

/** How many lines go between two looks at the budget. */
const LINES_A_LOOK = 256;

export async function scanDecoded(
  content: TextContent,
  literal: UnitLiteral,
  budget: SearchBudget,
  onLine: (line: number, text: string, index: number) => boolean,
  stats?: ScanStats,
): Promise<FileScanEnd> {
  const { lines } = content;
  for (let line = 0; line < lines.length; line++) {
    if (line % LINES_A_LOOK === 0) {
      const stop = budget.stop();
      if (stop !== null) return { kind: "stopped", reason: stop, line: line + 1 };
      await budget.pause();
    }
    const text = lines[line]!;
    budget.charge(text.length + 1);
    const index = literal.indexIn(text, stats);
    if (index >= 0 && !onLine(line + 1, text, index)) return { kind: "full" };
  }
  return { kind: "searched" };
}
