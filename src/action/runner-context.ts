// What the GitHub Actions runner tells a step about its job, read from the step's environment:
// the event (its name and the file that holds its payload), the repository, where GitHub's API and
// web host are (github.com or a GitHub Enterprise Server), and the files a step reports through.

import { httpUrl } from "../config/http-url.ts";
import { LoupeError } from "../domain/errors.ts";

export interface RunnerContext {
  readonly eventName: string;
  readonly eventPath: string;
  readonly owner: string;
  readonly repo: string;
  /** e.g. https://api.github.com */
  readonly apiUrl: string;
  /** e.g. https://github.com: where the repository's git lives. */
  readonly serverUrl: string;
  /** Where earlier steps may have checked out code; null when the runner set none. */
  readonly workspace: string | null;
  /** RUNNER_TEMP: the job's temporary folder, where a step may have checked out code too. */
  readonly tempDir: string | null;
  readonly outputPath: string | null;
  readonly summaryPath: string | null;
}

type Env = Readonly<Record<string, string | undefined>>;

export function readRunnerContext(env: Env): RunnerContext {
  const required = (name: string): string => {
    const value = (env[name] ?? "").trim();
    if (value === "") {
      throw new LoupeError(
        "configuration_invalid",
        `${name} is not set: Loupe's action runs in a GitHub workflow`,
      );
    }
    return value;
  };
  const [owner, repo, ...extra] = required("GITHUB_REPOSITORY").split("/");
  if (!owner || !repo || extra.length > 0) {
    throw new LoupeError("configuration_invalid", "GITHUB_REPOSITORY must be owner/name");
  }
  const optional = (name: string): string | null => (env[name] ?? "").trim() || null;
  return {
    eventName: required("GITHUB_EVENT_NAME"),
    eventPath: required("GITHUB_EVENT_PATH"),
    owner,
    repo,
    apiUrl: httpUrl("GITHUB_API_URL", optional("GITHUB_API_URL") ?? "https://api.github.com"),
    serverUrl: httpUrl("GITHUB_SERVER_URL", optional("GITHUB_SERVER_URL") ?? "https://github.com"),
    workspace: optional("GITHUB_WORKSPACE"),
    tempDir: optional("RUNNER_TEMP"),
    outputPath: optional("GITHUB_OUTPUT"),
    summaryPath: optional("GITHUB_STEP_SUMMARY"),
  };
}
