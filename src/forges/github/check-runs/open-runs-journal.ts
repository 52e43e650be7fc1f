// Loupe's record of the check runs it has created and not yet completed, kept in a file so that
// a process killed without its shutdown (SIGKILL, the OOM killer, a node lost) can complete them
// when it starts again: GitHub would otherwise show them queued or in progress until they go stale
// 14 days later. Every check run Loupe creates or completes goes through the installation client,
// so the journal watches that client's requests rather than every call site.
//
// The file (`open-check-runs.json` in LOUPE_STATE_DIR) is rewritten whole, through a temporary
// file and a rename, one write at a time. One directory belongs to one Loupe process.

import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { errorDetail } from "../../../log/error-detail.ts";
import type { Logger } from "../../../log/job-logger.ts";
import type { GitHubClient } from "../octokit.ts";

export interface OpenRun {
  readonly installationId: number;
  readonly owner: string;
  readonly repo: string;
  readonly checkRunId: number;
}

export interface OpenRunsJournal {
  /** Records this client's check-run creations and completions (once per client). */
  watch(octokit: GitHubClient, installationId: number): void;
  /** The runs an earlier process left open, read at start; each is forgotten once `settle`d. */
  leftOpen(): Promise<readonly OpenRun[]>;
  /** Forgets a run (completed now, or gone from GitHub). */
  settle(run: OpenRun): Promise<void>;
}

const FILE = "open-check-runs.json";
const keyOf = (run: OpenRun) => `${run.owner}/${run.repo}#${run.checkRunId}`;

/** A journal that records nothing, for when no state directory is configured. */
export const NO_JOURNAL: OpenRunsJournal = {
  watch: () => {},
  leftOpen: async () => [],
  settle: async () => {},
};

export function createOpenRunsJournal(dir: string, log: Pick<Logger, "warn">): OpenRunsJournal {
  const file = path.join(dir, FILE);
  const open = new Map<string, OpenRun>();
  const watched = new WeakSet<object>();
  const loaded = load(file, log).then((runs) => {
    for (const run of runs) open.set(keyOf(run), run);
    return runs;
  });
  let writing: Promise<void> = loaded.then(() => undefined);

  const persist = (): Promise<void> => {
    writing = writing.then(async () => {
      try {
        await mkdir(dir, { recursive: true });
        const temporary = `${file}.${process.pid}.tmp`;
        await writeFile(temporary, `${JSON.stringify([...open.values()])}\n`);
        await rename(temporary, file);
      } catch (error) {
        log.warn({ error: errorDetail(error) }, "check-run journal not written");
      }
    });
    return writing;
  };

  return {
    watch(octokit, installationId) {
      if (watched.has(octokit)) return;
      watched.add(octokit);
      octokit.hook.after("request", async (response, options) => {
        const params = options as {
          method?: string;
          url?: string;
          owner?: unknown;
          repo?: unknown;
          status?: unknown;
        };
        if (typeof params.owner !== "string" || typeof params.repo !== "string") return;
        const created = params.method === "POST" && params.url === "/repos/{owner}/{repo}/check-runs";
        const completed =
          params.method === "PATCH" &&
          params.url === "/repos/{owner}/{repo}/check-runs/{check_run_id}" &&
          params.status === "completed";
        if (!created && !completed) return;
        const checkRunId = created
          ? Number((response.data as { id?: unknown }).id)
          : Number((options as { check_run_id?: unknown }).check_run_id);
        if (!Number.isSafeInteger(checkRunId)) return;
        const run: OpenRun = { installationId, owner: params.owner, repo: params.repo, checkRunId };
        await loaded;
        if (created) open.set(keyOf(run), run);
        else open.delete(keyOf(run));
        await persist();
      });
    },
    leftOpen: () => loaded,
    async settle(run) {
      await loaded;
      open.delete(keyOf(run));
      await persist();
    },
  };
}

async function load(file: string, log: Pick<Logger, "warn">): Promise<OpenRun[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      log.warn({ error: errorDetail(error) }, "check-run journal not readable");
    }
    return [];
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) throw new Error("not a list");
    return parsed.filter(isOpenRun);
  } catch {
    // A damaged journal must not stop Loupe: keep it aside for a person to look at.
    log.warn({ file: path.basename(file) }, "check-run journal is damaged; starting a new one");
    await rename(file, `${file}.damaged`).catch(() => undefined);
    return [];
  }
}

function isOpenRun(value: unknown): value is OpenRun {
  const run = value as Partial<Record<keyof OpenRun, unknown>> | null;
  return (
    typeof run === "object" &&
    run !== null &&
    Number.isSafeInteger(run.installationId) &&
    Number.isSafeInteger(run.checkRunId) &&
    typeof run.owner === "string" &&
    typeof run.repo === "string"
  );
}
