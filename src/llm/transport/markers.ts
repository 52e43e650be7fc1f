// Finds the tool calls a model wrote as marker lines in its text. A call is one whole line,
//   <<<LOUPE_CALL name="read_repository_file" id="c1">{"path":"src/a.ts"}>>>
// outside any fenced or indented code block: repository text the model quotes (a file that
// contains marker-like text, shown in a code block or inline) is never a call. The scanner only
// cuts lines; ids, names, argument JSON and schemas are checked by the same validator as native
// calls, so one bad marker rejects the whole turn.

export const MARKER_PREFIX = "<<<LOUPE_CALL";
const MARKER_SUFFIX = ">>>";
/** name and id are taken as written; the validator decides whether they are acceptable. */
const MARKER_LINE = /^<<<LOUPE_CALL name="([^"]*)" id="([^"]*)">(.*)>>>$/;
// CommonMark: up to three spaces of indentation, then at least three backticks or tildes.
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A marker as written: the argument text is left for the validator to parse. */
export interface MarkerCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export type MarkerScan =
  | { readonly kind: "none" }
  | { readonly kind: "calls"; readonly calls: readonly MarkerCall[] }
  /** A line that starts like a marker but is not one whole marker (split, cut, misspelled). */
  | { readonly kind: "malformed"; readonly line: number };

export function scanMarkers(content: unknown): MarkerScan {
  if (typeof content !== "string" || !content.includes(MARKER_PREFIX)) return { kind: "none" };
  const calls: MarkerCall[] = [];
  let fence: string | null = null;
  const lines = content.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const opener = FENCE.exec(raw)?.[1];
    if (fence !== null) {
      // A fence closes with the same character, at least as long, and nothing else on the line.
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) {
        if (raw.trim() === opener) fence = null;
      }
      continue;
    }
    if (opener !== undefined) {
      fence = opener;
      continue;
    }
    // Four spaces or a tab make an indented code block: quoted text, not a call.
    const indent = /^ {0,3}(?! |\t)/.exec(raw);
    if (indent === null) continue;
    const line = raw.slice(indent[0].length).trimEnd();
    if (!line.startsWith(MARKER_PREFIX)) continue;
    const match = MARKER_LINE.exec(line);
    if (match === null) return { kind: "malformed", line: index + 1 };
    calls.push({ name: match[1] ?? "", id: match[2] ?? "", arguments: match[3] ?? "" });
  }
  return calls.length === 0 ? { kind: "none" } : { kind: "calls", calls };
}

/** The form written in the catalog, so the prompt and the scanner cannot disagree. */
export function markerExample(name: string, id: string, args: string): string {
  return `${MARKER_PREFIX} name="${name}" id="${id}">${args}${MARKER_SUFFIX}`;
}

const MARKER_ANYWHERE = /<<<LOUPE_CALL\b[^\n]*?>>>|<<<LOUPE_CALL\b/g;

/** Removes marker text from model prose that is about to be published (a final review's fields). */
export function stripMarkerText(text: string): string {
  return text.includes(MARKER_PREFIX) ? text.replace(MARKER_ANYWHERE, "[tool call marker removed]") : text;
}
