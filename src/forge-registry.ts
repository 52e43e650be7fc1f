// The forges Loupe serves, by id: a new forge is one folder under src/forges/ and one line here
// (docs/architecture.md, "Adding a forge"). Each is started with its own setup when the process
// is configured for it (GitHub: the App's Probot; GitLab: GITLAB_URL and its token); a job whose
// forge this process does not serve (a fleet shared with replicas that do) fails saying so.

import type { Forge, ForgeContext, ForgeId, ServedForge } from "./forge/forge.ts";
import { GITHUB_FORGE, type GitHubSetup } from "./forges/github/github-forge.ts";
import { GITLAB_FORGE, type GitLabSetup } from "./forges/gitlab/gitlab-forge.ts";
import type { WorkspaceHandle } from "./workspace/types.ts";

/** Each forge's setup in this process; null: not served here. */
export interface ForgeSetups {
  readonly github: GitHubSetup | null;
  readonly gitlab: GitLabSetup | null;
}

const FORGES: { readonly [Id in ForgeId]: Forge<NonNullable<ForgeSetups[Id]>> } = {
  github: GITHUB_FORGE,
  gitlab: GITLAB_FORGE,
};

export interface ServedForges<W extends WorkspaceHandle> {
  /** The forge of a job; throws when this process does not serve it. */
  of(id: ForgeId): ServedForge<W>;
  readonly all: readonly ServedForge<W>[];
}

export function startForges<W extends WorkspaceHandle>(
  setups: ForgeSetups,
  context: ForgeContext<W>,
): ServedForges<W> {
  const served = new Map<ForgeId, ServedForge<W>>();
  const start = <Id extends ForgeId>(id: Id) => {
    const setup = setups[id];
    if (setup !== null)
      served.set(id, (FORGES[id] as Forge<NonNullable<ForgeSetups[Id]>>).start(setup, context));
  };
  for (const id of Object.keys(FORGES) as ForgeId[]) start(id);
  return {
    of: (id) => {
      const forge = served.get(id);
      if (forge === undefined) throw new Error(`a ${id} job, and ${id} is not configured in this process`);
      return forge;
    },
    all: [...served.values()],
  };
}
