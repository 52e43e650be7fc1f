// One paragraph for the check run (and the CLI) saying which guidance files the model was given,
// from where, and which were left out and why. File names come from the repository, so each is
// an escaped code span.

import type { ForgeWords } from "../domain/forge-words.ts";
import type { Guidance, GuidanceFile } from "../guidance/types.ts";
import { codeSpan } from "../review/markdown-escape.ts";

export function describeGuidance(guidance: Guidance, from: string, words: ForgeWords): string {
  if (!guidance.enabled) return `Repository guidance: off (\`guidance: false\` in ${words.settingsFile}).`;
  const parts: string[] = [];
  parts.push(
    guidance.files.length === 0
      ? `Repository guidance: none given to the model (none found on ${from}).`
      : `Repository guidance given to the model, from ${from}: ${guidance.files.map(describeFile).join(", ")}.`,
  );
  if (guidance.skipped.length > 0) {
    parts.push(
      `Not given: ${guidance.skipped.map((skip) => `${codeSpan(skip.path)} (${skip.reason})`).join(", ")}.`,
    );
  }
  return parts.join(" ");
}

function describeFile(file: GuidanceFile): string {
  const notes: string[] = [];
  if (file.matchedFiles !== null) {
    notes.push(`for ${file.matchedFiles} changed file${file.matchedFiles === 1 ? "" : "s"}`);
  }
  if (file.truncated)
    notes.push(`cut to ${kib(new TextEncoder().encode(file.text).byteLength)} of ${kib(file.bytes)}`);
  return `${codeSpan(file.path)}${notes.length === 0 ? "" : ` (${notes.join(", ")})`}`;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
