// Which settings layers a review applied, as the review's report shows them (and so every place
// that carries the report's texts): each layer with where
// it came from, the keys it set and the keys it could not set, and each directory rule with its
// patterns, what it sets and how many of the reviewed files it took. Patterns and sources are
// written by people with push access, so they are code spans and text nodes, never Markdown.

import type { AppliedSettings } from "../config/settings-layers.ts";
import { cutCodePoints } from "../domain/text.ts";
import { fitBlocks } from "../review/fit-blocks.ts";
import { serializeBlocks } from "../review/markdown-serialize.ts";
import { type Block, code, heading, type Inline, paragraph, text } from "../review/markdown-tree.ts";
import { MAX_CHECK_RUN_FIELD } from "./check-run-output.ts";
import type { CheckRunOutput } from "./review-report.ts";

const MAX_SHOWN = 300;

const codes = (values: readonly string[]): Inline[] =>
  values.length === 0
    ? [text("—")]
    : values.flatMap((value, i) => [...(i > 0 ? [text(", ")] : []), code(cutCodePoints(value, MAX_SHOWN))]);

export function settingsBlocks(settings: AppliedSettings | undefined): Block[] {
  if (settings === undefined) return [];
  const blocks: Block[] = [
    heading(3, text("Settings")),
    {
      type: "table",
      align: ["left", "left", "left", "left"],
      header: ["Layer", "From", "Keys set", "Not applied"],
      rows: settings.layers.map((layer) => [
        [text(layer.layer)],
        [text(cutCodePoints(layer.source, MAX_SHOWN))],
        codes(layer.keys),
        layer.ignored.length === 0
          ? [text("—")]
          : layer.ignored.flatMap((entry, i) => [
              ...(i > 0 ? [text("; ")] : []),
              code(entry.key),
              text(` (${entry.reason})`),
            ]),
      ]),
    },
  ];
  if (settings.rules.length === 0) {
    blocks.push(paragraph(text("No directory rules.")));
    return blocks;
  }
  blocks.push({
    type: "table",
    align: ["left", "left", "left", "right"],
    header: ["Directory rule (first match wins)", "Patterns", "Sets", "Files"],
    rows: settings.rules.map((rule) => [
      [text(`${rule.layer} `), code(`rules[${rule.index}]`)],
      codes(rule.paths),
      codes(rule.sets),
      [text(String(rule.files))],
    ]),
  });
  return blocks;
}

/** The output with the settings section at the end of its summary, within the summary's limit. */
export function withSettingsSection<T extends CheckRunOutput>(
  output: T,
  settings: AppliedSettings | undefined,
): T {
  const blocks = settingsBlocks(settings);
  const room = MAX_CHECK_RUN_FIELD - output.summary.length - 2;
  if (blocks.length === 0 || room < 200) return output;
  return { ...output, summary: `${output.summary}\n\n${serializeBlocks(fitBlocks(blocks, room))}` };
}
