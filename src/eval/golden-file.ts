// One file of Martian's offline code-review benchmark (`offline/golden_comments/<project>.json`): an
// array of pull requests, each with its URL, title and the golden comments a reviewer should have
// made. Only the fields below are read; anything else in the file is ignored, so a newer file with
// more fields still parses.

import * as v from "valibot";

const GoldenCommentSchema = v.object({
  comment: v.pipe(v.string(), v.minLength(1)),
  severity: v.optional(v.nullable(v.string()), null),
});

const GoldenPullSchema = v.object({
  url: v.pipe(v.string(), v.url()),
  pr_title: v.optional(v.string(), ""),
  comments: v.array(GoldenCommentSchema),
});

export const GoldenFileSchema = v.array(GoldenPullSchema);

export type GoldenPull = v.InferOutput<typeof GoldenPullSchema>;

export interface PullAddress {
  readonly owner: string;
  readonly repo: string;
  readonly number: number;
}

/** `https://github.com/owner/repo/pull/123` (any host, trailing parts allowed), or null. */
export function pullAddress(url: string): PullAddress | null {
  const match = /^https?:\/\/[^/]+\/([^/]+)\/([^/]+)\/pull\/(\d+)(?:[/?#].*)?$/.exec(url);
  if (match === null) return null;
  return { owner: match[1]!, repo: match[2]!, number: Number(match[3]) };
}

/** A file-system-safe key for one pull request: `owner__repo__123`. */
export function pullKey(address: PullAddress): string {
  return `${address.owner}__${address.repo}__${address.number}`.replace(/[^A-Za-z0-9._-]/g, "_");
}

export type GoldenParse =
  | { readonly kind: "ok"; readonly pulls: readonly GoldenPull[] }
  | { readonly kind: "invalid"; readonly problem: string };

/** Parses one golden file's text; every pull request must have a pull-request URL. */
export function parseGoldenFile(text: string): GoldenParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "invalid", problem: "is not JSON" };
  }
  const parsed = v.safeParse(GoldenFileSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    return { kind: "invalid", problem: `${v.getDotPath(issue) ?? "(root)"}: ${issue.message}` };
  }
  const bad = parsed.output.find((pull) => pullAddress(pull.url) === null);
  if (bad !== undefined) return { kind: "invalid", problem: `${bad.url} is not a pull request URL` };
  return { kind: "ok", pulls: parsed.output };
}
