// The command a skip text tells someone to type, exact enough to copy: `@<handle> review` with the
// handle commands mention (the App's slug, the Action's `mention` input). The handle is looked up
// only when a text needs it; without one (or when the lookup fails) the words stay general.

export type CommandVerb = "review" | "resume";

/** The handle, or null when there is none or it cannot be looked up now. */
export async function commandHandle(mention: (() => Promise<string>) | undefined): Promise<string | null> {
  if (mention === undefined) return null;
  return await mention().catch(() => null);
}

/** "a comment `@loupe review`", or "a `review` command mentioning Loupe" without a handle. */
export function commandText(handle: string | null, verb: CommandVerb): string {
  return handle ? `a comment \`@${handle} ${verb}\`` : `a \`${verb}\` command mentioning Loupe`;
}

/** The optional `mention` of a run, passed on as an optional property (absent stays absent). */
export function mentionOf(run: { readonly mention?: () => Promise<string> }): {
  readonly mention?: () => Promise<string>;
} {
  return run.mention === undefined ? {} : { mention: run.mention };
}
