// A comment Loupe may act on, whichever forge delivered it: the comment, the change it is on, who
// wrote it, and the thread it answers. Each forge maps its own webhooks to it (forges/*/).

import type { CommentSource } from "../conversation/conversation-api.ts";
import type { AuthorRole } from "../domain/author-role.ts";
import type { ForgeTag } from "../domain/review-request.ts";

/** A comment on a pull request, whoever delivered it (the Action's workflow has no installation). */
export interface PullRequestComment {
  readonly kind: "comment";
  readonly deliveryId: string;
  readonly source: CommentSource;
  readonly owner: string;
  readonly repo: string;
  readonly pullNumber: number;
  readonly commentId: number;
  readonly body: string;
  readonly author: {
    readonly login: string | null;
    readonly type: string | null;
    /** null when the forge does not say (GitLab's note events). */
    readonly role: AuthorRole | null;
  };
  /** Review comments: the thread's first comment, when this one is a reply. */
  readonly inReplyTo: number | null;
  /** Who opened the pull request (the event's own record); absent or null when it does not say. */
  readonly pullAuthor?: string | null;
}

/** A comment as a forge delivered it: GitHub's to one installation of the App, or GitLab's. */
export type CommentEvent = PullRequestComment & ForgeTag;

export type CommentSkip = { readonly kind: "skip"; readonly message: string };
