// One project on the fake GitLab, a scripted model and Loupe as a real server process serving
// GitLab alone (none of the GitHub App's settings): the GitLab counterpart of server-world.ts,
// set up and stopped in one place. The project's content is one changed file on branch `change`
// unless the test gives its own; the hook is the fake GitLab's project hook pointed at Loupe.
// `startGitLabWorldBesideApp` starts the same world with a server that runs the GitHub App too
// (on a fake GitHub, with the test world's settings), as a server serving both forges is set up.

import { nothingFound } from "./chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "./fake-github.ts";
import { type FakeGitLab, startFakeGitLab } from "./fake-gitlab.ts";
import { createOneChangeRepo, type FixtureRepo } from "./git-fixture.ts";
import { type FakeGitLabHook, fakeGitLabHook } from "./gitlab-webhooks.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "./loupe-process.ts";
import { type ScriptedProvider, type ScriptedTurn, startScriptedProvider } from "./scripted-provider.ts";

export interface GitLabWorld {
  readonly gitlab: FakeGitLab;
  readonly provider: ScriptedProvider;
  readonly loupe: LoupeProcess;
  readonly fixture: FixtureRepo;
  /** The project on the fake GitLab, e.g. "team/app". */
  readonly project: string;
  readonly secret: string;
  /** The project's hook (Idempotency-Key sent unless `idempotencyKey: false`). */
  readonly hook: FakeGitLabHook;
  /** The server's environment, for another start with one setting changed. */
  readonly env: Readonly<Record<string, string>>;
  /** Stops everything that was started, each part even when one fails; then throws the first failure. */
  stop(): Promise<void>;
}

/** The world whose server runs the GitHub App beside GitLab. */
export interface GitLabBesideAppWorld extends GitLabWorld {
  readonly github: FakeGitHub;
}

export interface GitLabWorldOptions {
  /** Names the test's secrets, so a leak in any output is found by name. */
  readonly name: string;
  readonly project?: string;
  readonly fixture?: () => FixtureRepo;
  /** The model's turns; by default every review finds nothing. */
  readonly script?: readonly ScriptedTurn[];
  readonly members?: Readonly<Record<string, number>>;
  /** A GitLab release older than ≈17.x sends no Idempotency-Key. */
  readonly idempotencyKey?: boolean;
  /** More of the server's environment. */
  readonly extra?: Readonly<Record<string, string>>;
  /** The verification pass runs, as by default in the product (the worlds script the reviewer alone). */
  readonly verify?: boolean;
}

const NOTHING_FOUND: ScriptedTurn = { body: nothingFound() };

export function gitLabOnlyEnv(world: {
  readonly gitlab: Pick<FakeGitLab, "url" | "token">;
  readonly providerBaseURL: string;
  readonly apiKey: string;
  readonly secret: string;
  readonly extra?: Readonly<Record<string, string>>;
}): Record<string, string> {
  return {
    GITLAB_URL: world.gitlab.url,
    GITLAB_TOKEN: world.gitlab.token,
    GITLAB_WEBHOOK_SECRET: world.secret,
    OPENAI_BASE_URL: world.providerBaseURL,
    OPENAI_API_KEY: world.apiKey,
    REVIEW_MODEL: "deepseek-v4-flash",
    REVIEW_VERIFY: "off",
    LOG_LEVEL: "info",
    NODE_ENV: "production",
    ...world.extra,
  };
}

export function startGitLabWorld(options: GitLabWorldOptions): Promise<GitLabWorld> {
  return startWorld(options, null);
}

export async function startGitLabWorldBesideApp(options: GitLabWorldOptions): Promise<GitLabBesideAppWorld> {
  const github = await startFakeGitHub();
  // The world owns the fake GitHub from here: its stop (or a failed start) stops it too.
  return { ...(await startWorld(options, github)), github };
}

async function startWorld(options: GitLabWorldOptions, github: FakeGitHub | null): Promise<GitLabWorld> {
  const secret = `gitlab-hook-e2e-${options.name}-${process.pid}-${Date.now()}`;
  const apiKey = `test-key-e2e-${options.name}-${process.pid}-${Date.now()}`;
  const project = options.project ?? "team/app";
  const started: { stop(): Promise<void> | void }[] = github ? [github] : [];
  const stop = async () => {
    const failures: unknown[] = [];
    for (const part of started.reverse()) {
      try {
        await part.stop();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  };
  try {
    const fixture = (options.fixture ?? createOneChangeRepo)();
    started.push({ stop: () => fixture.dispose() });
    const gitlab = await startFakeGitLab();
    started.push(gitlab);
    gitlab.addProject({ path: project, source: fixture, members: options.members ?? { dev: 30 } });
    const script = options.script ?? Array.from({ length: 20 }, () => NOTHING_FOUND);
    const provider = await startScriptedProvider([...script]);
    started.push(provider);
    const env = github
      ? fakeWorldEnv({
          github,
          providerBaseURL: provider.baseURL,
          webhookSecret: `whsec-e2e-${options.name}-${process.pid}-${Date.now()}`,
          apiKey,
          extra: {
            GITLAB_URL: gitlab.url,
            GITLAB_TOKEN: gitlab.token,
            GITLAB_WEBHOOK_SECRET: secret,
            ...options.extra,
          },
        })
      : gitLabOnlyEnv({
          gitlab,
          providerBaseURL: provider.baseURL,
          apiKey,
          secret,
          ...(options.extra ? { extra: options.extra } : {}),
        });
    if (options.verify === true) delete env.REVIEW_VERIFY;
    const loupe = await startLoupeProcess({ command: "node", env });
    started.push(loupe);
    const hook = fakeGitLabHook({
      url: `${loupe.url}/api/gitlab/webhooks`,
      secret,
      ...(options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
    });
    return { gitlab, provider, loupe, fixture, project, secret, hook, env, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
