// A push to `<owner>/.github`'s default branch may change the organisation's `.github/loupe.yml`:
// the App forgets its cached copy for that installation and owner (github/organisation-config-cache.ts).
// A push to any other branch, or any other repository, changes nothing Loupe reads.

import { ORGANISATION_CONFIG_REPO } from "../organisation-config-file.ts";

export interface PushPayload {
  readonly ref?: string;
  readonly installation?: { readonly id: number };
  readonly repository?: {
    readonly name?: string;
    readonly default_branch?: string;
    readonly owner?: { readonly login?: string; readonly name?: string | null } | null;
  };
}

/** The installation and owner whose organisation file may have changed, or null. */
export function organisationConfigPush(
  payload: PushPayload,
): { readonly installationId: number; readonly owner: string } | null {
  const repository = payload.repository;
  const owner = repository?.owner?.login ?? repository?.owner?.name ?? undefined;
  const installationId = payload.installation?.id;
  if (repository?.name !== ORGANISATION_CONFIG_REPO || owner === undefined || owner === null) return null;
  if (installationId === undefined || repository.default_branch === undefined) return null;
  if (payload.ref !== `refs/heads/${repository.default_branch}`) return null;
  return { installationId, owner };
}
