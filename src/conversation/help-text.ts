// The static texts Loupe posts in the conversation. Nothing from the comment it answers is echoed
// back (an unknown command gets the help, not a quote of itself), so these need no sanitising.
// Each names the change and the report in the forge's words (a merge request's summary note).

import type { ForgeWords } from "../domain/forge-words.ts";
import { slugOf } from "./command.ts";
import { PAUSE_LABEL } from "./pause-state.ts";

export function helpText(botLogin: string, unknown: boolean, words: ForgeWords): string {
  const at = `@${slugOf(botLogin)}`;
  const { change, report } = words;
  return [
    unknown ? "Loupe did not recognise that command. These are the ones it knows:" : "Loupe's commands:",
    "",
    `- \`${at} review\`: review the commits since Loupe's last review (the whole ${change} when the history does not allow it; ${report} says why).`,
    `- \`${at} full review\`: review the whole ${change} again.`,
    `- \`${at} pause\`: stop the automatic reviews on push for this ${change}.`,
    `- \`${at} resume\`: review on push again.`,
    `- \`${at} help\`: this message.`,
    "",
    `Mention ${at} in a reply in one of Loupe's review threads to ask about its finding: Loupe checks the code at the head and answers there, and resolves the thread when the finding is fixed or withdrawn.`,
    "Loupe resolves its own review threads when a later push fixes the finding.",
    "Loupe answers people who can write to this repository.",
  ].join("\n");
}

export function pausedText(botLogin: string, words: ForgeWords): string {
  const at = `@${slugOf(botLogin)}`;
  return `Automatic reviews on push are paused for this ${words.change} (label \`${PAUSE_LABEL}\`). \`${at} resume\` turns them back on; \`${at} review\` still reviews when asked.`;
}

export function resumedText(botLogin: string, words: ForgeWords): string {
  const at = `@${slugOf(botLogin)}`;
  return `Automatic reviews on push are back on for this ${words.change} (\`${at} pause\` stops them).`;
}

export function closedText(words: ForgeWords): string {
  return `This ${words.change} is closed: Loupe reviews open ${words.change}s only.`;
}
