// The parts of the App's runtime that touch the GitHub App itself: its bot login, the journal of
// open check runs, and the App's authentication, which is absent when Loupe serves GitLab alone
// (no APP_ID): a GitHub job that reaches such a process (a fleet shared with GitHub replicas)
// fails saying so, as a GitLab job does in a process without GitLab.

import type { Probot } from "probot";
import { type AppClient, createBotLoginLookup } from "./forges/github/bot-login.ts";
import { createOpenRunsJournal, NO_JOURNAL, type OpenRunsJournal } from "./jobs/open-runs-journal.ts";

/** What the runtime asks of Probot: its logger, and the App's authentication. */
export type GitHubAuth = Pick<Probot, "log" | "auth">;

const NO_GITHUB = "a GitHub job, and the GitHub App is not configured in this process (APP_ID is unset)";

export function withoutGitHub(log: Probot["log"]): GitHubAuth & { readonly login: () => Promise<string> } {
  return {
    log,
    auth: async () => {
      throw new Error(NO_GITHUB);
    },
    login: async () => {
      throw new Error(NO_GITHUB);
    },
  };
}

export function botLoginOf(app: Probot, given: string | undefined): () => Promise<string> {
  if (given !== undefined) return () => Promise.resolve(given);
  return createBotLoginLookup(async () => (await app.auth()) as unknown as AppClient);
}

/** In a fleet a dead replica's runs are taken over, not cancelled: a journal would cancel them. */
export function openRunsJournal(app: GitHubAuth, stateDir: string | null, fleet: boolean): OpenRunsJournal {
  if (fleet && stateDir !== null) app.log.warn({}, "LOUPE_STATE_DIR is ignored with REDIS_URL");
  return stateDir === null || fleet ? NO_JOURNAL : createOpenRunsJournal(stateDir, app.log);
}
