// Opens the repository a CLI command names: a local directory (any revisions) or an http(s)
// clone URL (40-hex SHAs only, fetched at depth 1 with the merge-base found by deepening).
// A token for private repositories comes from LOUPE_GIT_TOKEN and goes only into a header;
// REVIEW_MAX_FETCH_BYTES bounds the fetch as it does in the App. The fetch code (isomorphic-git)
// is imported only for a URL: a local repository, the common case of `loupe tool`, never loads it.

import { LoupeError } from "../../domain/errors.ts";
import { registerSecret } from "../../domain/redact.ts";
import { openLocalRepository } from "../../workspace/open-local.ts";
import type { Workspace } from "../../workspace/types.ts";

export interface OpenRepositoryOptions {
  /** A local directory, or an http(s) URL of the repository. */
  readonly repo: string;
  readonly base: string;
  readonly head: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
}

const SHA = /^[0-9a-f]{40}$/;

export async function openRepository(options: OpenRepositoryOptions): Promise<Workspace> {
  if (!/^https?:\/\//i.test(options.repo)) {
    return await openLocalRepository({
      dir: options.repo,
      base: options.base,
      head: options.head,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  }
  if (!SHA.test(options.base) || !SHA.test(options.head)) {
    throw new LoupeError(
      "usage_invalid",
      "with a repository URL, --base and --head must be full 40-hex commit SHAs (names cannot be resolved remotely)",
    );
  }
  const token = options.env.LOUPE_GIT_TOKEN;
  registerSecret(token); // for the life of the command, like the provider's key
  const [{ readEnvOrThrow }, { ReviewLimitsSchema }, { fetchWorkspace }] = await Promise.all([
    import("../../config/read-env.ts"),
    import("../../config/review-limits.ts"),
    import("../../workspace/fetch.ts"),
  ]);
  return await fetchWorkspace({
    url: options.repo,
    headSha: options.head,
    baseSha: options.base,
    token: token === undefined || token === "" ? undefined : token,
    maxBytes: readEnvOrThrow(ReviewLimitsSchema, options.env).maxFetchBytes,
    signal: options.signal,
  });
}
