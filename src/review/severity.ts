// Severity order (critical > high > medium > low > info) and how each one is shown.

import type { Severity } from "../domain/finding.ts";

const RANK: Readonly<Record<Severity, number>> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

export function severityRank(severity: Severity): number {
  return RANK[severity];
}

export function isAtLeast(severity: Severity, minimum: Severity): boolean {
  return RANK[severity] >= RANK[minimum];
}

const BADGES: Readonly<Record<Severity, readonly [emoji: string, label: string]>> = {
  critical: ["🔴", "Critical"],
  high: ["🟠", "High"],
  medium: ["🟡", "Medium"],
  low: ["🔵", "Low"],
  info: ["⚪", "Info"],
};

/** The badge's emoji and its label (shown in bold). */
export function severityBadge(severity: Severity): readonly [emoji: string, label: string] {
  return BADGES[severity];
}

export function emptySeverityCounts(): Record<Severity, number> {
  return { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
}
