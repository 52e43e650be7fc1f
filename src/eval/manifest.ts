// The manifest `loupe eval prepare` writes and the other eval commands read: every pull request of
// the benchmark with the two commits a review needs (resolved once, so every run reviews the same
// change even after the pull request moves) and its golden comments.

import * as v from "valibot";

const ManifestPullSchema = v.object({
  /** `owner__repo__number`: the name of its result files. */
  key: v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]+$/)),
  url: v.string(),
  title: v.string(),
  /** The base repository's clone URL: the head commit is fetched from it (GitHub keeps `refs/pull/N/head`). */
  clone_url: v.string(),
  base: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/)),
  head: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/)),
  golden: v.array(v.object({ comment: v.string(), severity: v.nullable(v.string()) })),
});

export const ManifestSchema = v.object({
  version: v.literal(1),
  /** The golden set's content hash (golden-set.ts); absent in a manifest written before it was kept. */
  golden_set: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{12}$/))),
  pulls: v.array(ManifestPullSchema),
});

export type Manifest = v.InferOutput<typeof ManifestSchema>;
export type ManifestPull = v.InferOutput<typeof ManifestPullSchema>;

/** The manifest, or what is wrong with it, worded about `what` ("the manifest" unless told). */
export function parseManifest(text: string, what = "the manifest"): Manifest | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `${what} is not JSON`;
  }
  const parsed = v.safeParse(ManifestSchema, json);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  return `${what} is invalid: ${v.getDotPath(issue) ?? "(root)"}: ${issue.message}`;
}
