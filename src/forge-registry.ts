// Loupe's forges, by id: a new forge is one folder under src/forges/ and one line here
// (docs/architecture.md, "Adding a forge"). The App's process starts each forge it serves with its
// own setup when it is configured for it (GitHub: the App's Probot; GitLab: GITLAB_URL and its
// token); a job whose forge this process does not serve (a fleet shared with replicas that do)
// fails saying so. The local forge has no start: `loupe review` runs its one review itself (the
// command does not load this registry, which would load the App's forges and their optional
// packages).

import type { AppSettings } from "./config/app-settings.ts";
import type { Forge, ForgeContext, ForgeId, ServedForge } from "./forge/forge.ts";
import { GITHUB_FORGE, type GitHubSetup } from "./forges/github/github-forge.ts";
import { GITLAB_FORGE, type GitLabSetup } from "./forges/gitlab/gitlab-forge.ts";
import { LOCAL_FORGE } from "./forges/local/local-forge.ts";
import type { Logger } from "./log/job-logger.ts";
import type { WorkspaceHandle } from "./workspace/types.ts";

/** The setup of each forge the App serves, in this process; null: not served here. */
export interface ForgeSetups {
  readonly github: GitHubSetup | null;
  readonly gitlab: GitLabSetup | null;
}

const FORGES = {
  github: GITHUB_FORGE,
  gitlab: GITLAB_FORGE,
  local: LOCAL_FORGE,
} satisfies { readonly [Id in ForgeId]: { readonly id: Id } };

type ServedId = keyof ForgeSetups;
const SERVED: { readonly [Id in ServedId]: Required<Pick<Forge<NonNullable<ForgeSetups[Id]>>, "start">> } =
  FORGES;

export interface ServedForges<W extends WorkspaceHandle> {
  /** The forge of a job; throws when this process does not serve it. */
  of(id: ServedId): ServedForge<W>;
  readonly all: readonly ServedForge<W>[];
}

export function startForges<W extends WorkspaceHandle>(
  setups: ForgeSetups,
  context: ForgeContext<W>,
): ServedForges<W> {
  const served = new Map<ServedId, ServedForge<W>>();
  const start = <Id extends ServedId>(id: Id) => {
    const setup = setups[id];
    if (setup !== null) served.set(id, SERVED[id].start(setup, context));
  };
  for (const id of Object.keys(setups) as ServedId[]) start(id);
  return {
    of: (id) => {
      const forge = served.get(id);
      if (forge === undefined) throw new Error(`a ${id} job, and ${id} is not configured in this process`);
      return forge;
    },
    all: [...served.values()],
  };
}

/**
 * The forges the settings configure, each checked by its forge before the process serves it: the
 * settings to serve with, or the line the process stops with. (GitHub's setup is Probot's.)
 */
export async function checkForgesAtStart(
  settings: AppSettings,
  log: Logger,
): Promise<AppSettings | { readonly stop: string }> {
  if (settings.gitlab === null) return settings;
  const gitlab = await FORGES.gitlab.checkAtStart(settings.gitlab, log);
  return "stop" in gitlab ? gitlab : { ...settings, gitlab: gitlab.serve };
}
