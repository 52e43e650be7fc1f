// Model text as plain text for a reader that shows it as it is (SARIF's message.text, which
// GitHub's code scanning shows on alerts and pull-request annotations): no character that hides
// or reorders text, no Loupe marker, no mention or issue reference, no HTML tag, and no SARIF
// embedded link (`[text](id)` is a link in a SARIF plain-text message unless its brackets are
// escaped). Cut to a bound on a code point, saying so.

import { cutCodePoints } from "../domain/text.ts";
import { breakMarkers, stripInvisible } from "./markdown-text.ts";

export const CUT_MARK = " …";

export function inertPlainText(text: string, maxUnits: number): string {
  const inert = breakMarkers(stripInvisible(text))
    .replace(/@/g, "\uFF20") // ＠: never a mention, never an e-mail autolink
    .replace(/#(?=\d)/g, "\uFF03") // ＃12 is no issue reference
    .replace(/(gh)-(?=\d)/gi, "$1\u2011")
    .replace(/<(?=[A-Za-z/!?])/g, "\uFF1C") // ＜ opens no tag
    .replace(/[[\]]/g, (bracket) => `\\${bracket}`);
  if (inert.length <= maxUnits) return inert;
  return `${cutCodePoints(inert, maxUnits - CUT_MARK.length).replace(/\\$/, "")}${CUT_MARK}`;
}
