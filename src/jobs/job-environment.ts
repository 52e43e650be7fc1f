// What every job of the App runs with, a review or a reply in a review thread: its cancellation
// signal, the installation's GitHub client, the ports (workspace, loops), the operator's
// configuration, the log, and Loupe's own login.

import type { AppConfig } from "../config/app-config.ts";
import type { GitHubClient } from "../forges/github/octokit.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { ReviewPorts } from "../pipeline/review-ports.ts";
import type { Workspace, WorkspaceHandle } from "../workspace/types.ts";

/** W: what the ports make of a fetched workspace (in this thread, or a handle to a worker's). */
export interface JobEnvironment<W extends WorkspaceHandle = Workspace> {
  readonly signal: AbortSignal;
  readonly octokit: GitHubClient;
  readonly ports: ReviewPorts<W>;
  readonly config: AppConfig;
  readonly log: JobLogger;
  /** Loupe's own `<slug>[bot]` login (looked up once per process): only its texts count as Loupe's. */
  readonly botLogin: () => Promise<string>;
}
