// Whether the pull request's author may start an automatic review (domain/author-policy.ts): the
// operator's policy, tightened by the repository's `auto_review_authors`. A review someone asked
// for (a command, the re-run button, the CLI) is never held back here: asking already took write
// access or a press of GitHub's own button; nor is a change no one opened on a host.

import type { RepoConfig } from "../config/repo-config-schema.ts";
import { type AuthorPolicy, authorVerdict, stricterPolicy } from "../domain/author-policy.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import type { HostPeople } from "../host/pull-request-host.ts";
import { commandHandle, commandText } from "./command-text.ts";
import { type ReviewOutcome, skipped } from "./review-outcome.ts";

const WHO: Record<AuthorPolicy, string> = {
  everyone: "anyone",
  members: "the repository's owners, members and collaborators",
  writers: "people with write access",
};

/** null: the review goes on; else the skip that says who may start it. */
export async function decideAuthor(input: {
  readonly operatorPolicy: AuthorPolicy;
  readonly config: RepoConfig;
  readonly pullRequest: PullRequest;
  readonly asked: boolean;
  readonly people: HostPeople | undefined;
  /** How the texts name the change. */
  readonly words: ForgeWords;
  /** The handle commands mention (review-pull-request.ts); absent or failing: "mentioning Loupe". */
  readonly mention?: () => Promise<string>;
}): Promise<ReviewOutcome | null> {
  if (input.asked) return null;
  const policy = stricterPolicy(
    input.operatorPolicy,
    input.config.auto_review_authors ?? input.operatorPolicy,
  );
  const { author } = input.pullRequest;
  // A local change was opened by no one on any host: there is no stranger's review to hold back.
  if (author === null) return null;
  const verdict = authorVerdict(policy, author);
  if (verdict === "allowed") return null;
  if (verdict === "ask" && author.login !== null && input.people !== undefined) {
    if (await input.people.canWrite(author.login)) return null;
  }
  const command = commandText(await commandHandle(input.mention), "review");
  return skipped(
    "author_not_allowed",
    `Automatic reviews are for ${input.words.change}s by ${WHO[policy]} (\`auto_review_authors: ${policy}\`). ` +
      `Someone with write access can start this review with ${command}.`,
  );
}
