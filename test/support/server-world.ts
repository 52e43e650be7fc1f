// One repository on the fake GitHub, a model and Loupe as a real server process started against
// them: the world most end-to-end tests review in, set up and stopped in one place. The model is
// the realistic one (test/support/realistic-model.ts) unless the test scripts exact turns: a test
// about quoting or an exact transcript gives `script`, and then only those turns are answered.

import { type FakeGitHub, startFakeGitHub } from "./fake-github.ts";
import { createOneChangeRepo, type FixtureRepo } from "./git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "./loupe-process.ts";
import { type KnownFinding, type RealisticModelOptions, realisticResponder } from "./realistic-model.ts";
import { type ScriptedProvider, type ScriptedTurn, startScriptedProvider } from "./scripted-provider.ts";

/** What the realistic model finds in `createOneChangeRepo`'s change, worded its own way each run. */
export const ONE_CHANGE_FINDING: KnownFinding = {
  path: "src/a.ts",
  line: 1,
  severity: "low",
  titles: ["Magic number assigned to `a`", "`a` is a hard-coded constant", "Unexplained literal for a"],
  code: "export const a = 2;",
  impact: "the meaning of the value is lost to the next reader",
  recommendation: "Name the value or document where it comes from.",
};

export interface ServerWorld {
  readonly github: FakeGitHub;
  readonly provider: ScriptedProvider;
  readonly loupe: LoupeProcess;
  readonly fixture: FixtureRepo;
  readonly secret: string;
  readonly apiKey: string;
  /** Stops everything that was started, whichever step of the start failed. */
  stop(): Promise<void>;
}

export interface ServerWorldOptions {
  /** Names the test's secrets, so a leak in any output is found by name. */
  readonly name: string;
  /** The repository under octo/ on the fake GitHub. */
  readonly repo: string;
  /**
   * Exact turns, for a test about quoting or an exact transcript: without `model`, nothing else is
   * answered. Unset, the realistic model answers every request.
   */
  readonly script?: readonly ScriptedTurn[];
  /** The realistic model's knowledge (default: ONE_CHANGE_FINDING); it answers what `script` does not. */
  readonly model?: RealisticModelOptions;
  /** The repository's content; one changed file on branch `change` by default. */
  readonly fixture?: () => FixtureRepo;
  readonly collaborators?: Readonly<Record<string, string>>;
  /** Leave out a file's patch past GitHub's per-file diff limit, as GitHub does. */
  readonly fileDiffLimit?: boolean;
  /** `.github/loupe.yml` as the fake GitHub serves it from the default branch. */
  readonly config?: string;
  /** More of the server's environment (over the test world's defaults). */
  readonly extra?: Readonly<Record<string, string>>;
  /** Variables of the test world's defaults to leave unset (the product's default then applies). */
  readonly unset?: readonly string[];
}

export async function startServerWorld(options: ServerWorldOptions): Promise<ServerWorld> {
  const secret = `whsec-e2e-${options.name}-${process.pid}-${Date.now()}`;
  const apiKey = `test-key-e2e-${options.name}-${process.pid}-${Date.now()}`;
  const started: { stop(): Promise<void> | void }[] = [];
  const stop = async () => {
    for (const part of started.reverse()) await part.stop();
  };
  try {
    const fixture = (options.fixture ?? createOneChangeRepo)();
    started.push({ stop: () => fixture.dispose() });
    const github = await startFakeGitHub();
    started.push(github);
    github.addRepository({
      owner: "octo",
      repo: options.repo,
      source: fixture,
      ...(options.collaborators ? { collaborators: options.collaborators } : {}),
      ...(options.fileDiffLimit === true ? { fileDiffLimit: true } : {}),
      ...(options.config === undefined ? {} : { config: options.config }),
    });
    const realistic = options.script === undefined || options.model !== undefined;
    const provider = await startScriptedProvider(
      [...(options.script ?? [])],
      realistic ? { responder: realisticResponder(options.model ?? { findings: [ONE_CHANGE_FINDING] }) } : {},
    );
    started.push(provider);
    const env = fakeWorldEnv({
      github,
      providerBaseURL: provider.baseURL,
      webhookSecret: secret,
      apiKey,
      ...(options.extra ? { extra: options.extra } : {}),
    });
    for (const name of options.unset ?? []) delete env[name];
    const loupe = await startLoupeProcess({ command: "node", env });
    started.push(loupe);
    return { github, provider, loupe, fixture, secret, apiKey, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
