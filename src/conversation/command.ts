// Reads a command addressed to Loupe out of a pull request comment: `@<slug> review`,
// `@<slug> full review`, `@<slug> pause`, `@<slug> resume`, `@<slug> help`, with the courtesy
// people write around a command (`@<slug> review please`, `@<slug> please review again, thanks`).
// Any other text after the mention asks for help: words that could change what is asked
// (`review everything twice`) are not guessed at. Quoted lines (`> …`), code spans and fenced code are not read, so
// quoting or documenting a command never runs it again.

export type CommandName = "review" | "full_review" | "pause" | "resume" | "help";

export type ParsedComment =
  | { readonly kind: "none" }
  | { readonly kind: "command"; readonly command: CommandName; readonly unknown: boolean };

const COMMANDS: ReadonlyArray<readonly [RegExp, CommandName]> = [
  [/^full[\s-]+review$/, "full_review"],
  [/^review$/, "review"],
  [/^pause$/, "pause"],
  [/^resume$/, "resume"],
  [/^help$/, "help"],
];

/** Words around a command that ask nothing more of it. */
const COURTESY = /^(?:(?:please|pls|kindly|again|now|thanks|thank you|thx|ty)(?: |$))+/;

/** The command words of a comment's text after the mention, without the courtesy around them. */
function commandWords(words: string): string {
  const after = words.replace(COURTESY, "");
  for (const [pattern] of COMMANDS) {
    const head = new RegExp(`${pattern.source.slice(0, -1)}(?: |$)`).exec(after);
    const rest = head === null ? null : `${after.slice(head[0].length)} `.replace(COURTESY, "");
    if (head !== null && rest!.trim() === "") return head[0].trim();
  }
  return after;
}

/** The slug of `<slug>[bot]`, or the login itself for anything else. */
export function slugOf(botLogin: string): string {
  return botLogin.replace(/\[bot\]$/, "");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
}

/** The comment with fenced code blocks, quoted lines and code spans removed. */
export function readableText(body: string): string {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of body.split(/\r?\n/)) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length) fence = null;
      continue;
    }
    if (open) {
      fence = open[1]!;
      continue;
    }
    if (/^ {0,3}>/.test(line)) continue;
    kept.push(line.replace(/(`+)[^`]*?\1/g, " "));
  }
  return kept.join("\n");
}

/** Does the comment mention Loupe at all (outside quotes and code)? */
export function mentionsBot(body: string, botLogin: string): boolean {
  return mentionPattern(botLogin).test(readableText(body));
}

function mentionPattern(botLogin: string, flags = "i"): RegExp {
  // `@slug` or `@slug[bot]`, not followed by more login characters (`@loupe-x` is someone else).
  const slug = escapeRegExp(slugOf(botLogin));
  return new RegExp(`(?:^|[^\\w@/.-])@${slug}(?:\\[bot\\])?(?![\\w-])`, flags);
}

/** The first mention of Loupe that starts a command; the text after it, to the end of its line. */
export function parseCommand(body: string, botLogin: string): ParsedComment {
  const text = readableText(body);
  const mention = mentionPattern(botLogin, "gi");
  for (const match of text.matchAll(mention)) {
    const rest = text.slice(match.index + match[0].length).split("\n", 1)[0]!;
    const words = commandWords(
      rest
        .replace(/[.!?,:;]+/g, " ")
        .trim()
        .toLowerCase()
        .replace(/\s+/g, " "),
    );
    const found = COMMANDS.find(([pattern]) => pattern.test(words));
    if (found) return { kind: "command", command: found[1], unknown: false };
    return { kind: "command", command: "help", unknown: true };
  }
  return { kind: "none" };
}
