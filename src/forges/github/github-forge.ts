// The GitHub forge, served through Probot (the App): Probot authenticates as each installation
// and delivers GitHub's webhooks; the forge maps them to review requests and comments for the
// shared queues, and gives the one review job and the one reply job the GitHub host, the check
// run as the review's report (a queued run while the job waits, cancelled when it leaves the line
// without running), and the installation as the owner of the spend. The journal of open check runs
// completes at start the runs an earlier process left open (LOUPE_STATE_DIR; not in a fleet,
// whose dead replica's runs are taken over, not cancelled).

import { setTimeout as wait } from "node:timers/promises";
import type { Probot } from "probot";
import { createPermissionCache } from "../../conversation/permission-cache.ts";
import type { ForgeTag, GitHubTag } from "../../domain/review-request.ts";
import type { Forge, ForgeContext, ServedForge } from "../../forge/forge.ts";
import { errorDetail } from "../../log/error-detail.ts";
import type { WorkspaceHandle } from "../../workspace/types.ts";
import { type AppClient, createBotLoginLookup } from "./bot-login.ts";
import { RERUN_ACTION } from "./check-run.ts";
import { createCheckRuns } from "./check-runs/check-runs.ts";
import { completeLeftOpenRuns } from "./check-runs/left-open-runs.ts";
import { createOpenRunsJournal, NO_JOURNAL, type OpenRunsJournal } from "./check-runs/open-runs-journal.ts";
import { gitHubHost } from "./github-host.ts";
import { appCheckRun, gitHubReview } from "./github-review.ts";
import { observeGitHubRequests } from "./observe-requests.ts";
import type { GitHubClient } from "./octokit.ts";
import { retryWithin } from "./retry-deadline.ts";
import { createCommentHandler } from "./webhooks/comment-handler.ts";
import { deliveryFailure } from "./webhooks/delivery-failure.ts";
import { organisationConfigsFor, organisationPushHandler } from "./webhooks/organisation-configs.ts";
import { createReviewHandler } from "./webhooks/review-handler.ts";

export interface GitHubSetup {
  readonly probot: Probot;
  readonly appId: number | null;
  /** Loupe's `<slug>[bot]` login; looked up with GET /app (the app's JWT) when not given. */
  readonly botLogin?: string;
}

const HANDLED_EVENTS = ["pull_request", "check_run", "check_suite"] as const;
/** Comments in a pull request's conversation: commands, and replies in Loupe's threads. */
const CONVERSATION_EVENTS = ["issue_comment", "pull_request_review_comment"] as const;

/** How long the queued check run's request may keep retrying (waits of 1 s and 4 s). */
const ANNOUNCE_RETRY_MS = 5_000;

export const GITHUB_FORGE = {
  id: "github",
  start: <W extends WorkspaceHandle>(setup: GitHubSetup, context: ForgeContext<W>): ServedForge<W> => {
    const { probot } = setup;
    const { config, ports, dependencies } = context;
    const botLogin = botLoginOf(probot, setup.botLogin);
    const journal = openRunsJournal(probot, config.stateDir, context.fleet);
    // A job is plain data: whoever runs it authenticates as its installation (Probot caches the
    // installation token), and the journal sees every check run that client creates or completes.
    const installation = async (installationId: number): Promise<GitHubClient> => {
      const octokit = (await probot.auth(installationId)) as unknown as GitHubClient;
      journal.watch(octokit, installationId);
      observeGitHubRequests(octokit, dependencies.github, probot.log);
      return octokit;
    };
    const recovery = completeLeftOpenRuns({
      journal,
      auth: async (installationId) => (await probot.auth(installationId)) as unknown as GitHubClient,
      log: probot.log,
    }).catch((error: unknown) =>
      probot.log.warn({ error: errorDetail(error) }, "left-open check runs not completed"),
    );
    const checkRuns = createCheckRuns({
      name: config.checkRunName,
      progressIntervalMs: config.progressIntervalMs,
      log: probot.log,
      sleep: context.sleep,
    });
    const organisationConfigs = organisationConfigsFor(config, context.now);
    registerHandlers(setup, context, botLogin);
    const host = { gitBaseUrl: config.gitBaseUrl, gitHost: config.gitHost, botLogin };
    return {
      review: async (job, _signal, onCheckRun) => {
        const request = onGitHub(job.request);
        const octokit = await installation(request.installationId);
        const run = { job, request, octokit, checkRuns, ...(onCheckRun ? { onCheckRun } : {}) };
        return gitHubReview({
          ...{
            request,
            octokit,
            reviewTimeoutMs: ports.reviewTimeoutMs,
            sleep: context.sleep,
            now: Date.now,
          },
          host: {
            ...{ ...host, fetchWorkspace: ports.fetchWorkspace },
            // The organisation's file through the App's cache, kept per installation.
            organisationConfig: (read) => organisationConfigs.read(request, read),
          },
          reporter: (deadline) => appCheckRun(run, deadline),
        });
      },
      reply: async (asked) => {
        const request = onGitHub(asked);
        const octokit = await installation(request.installationId);
        return (started) => ({
          host: gitHubHost({
            ...{ ...host, octokit, fetchWorkspace: ports.fetchWorkspace },
            // A reply names no head: the host reads the pull request as it is now.
            request: {
              owner: request.owner,
              repo: request.repo,
              pullNumber: request.pullNumber,
              pullRequest: null,
            },
            // A reply publishes no review; were it to, its waits would end with the reply's own time.
            retry: {
              sleep: (ms, signal) => wait(ms, undefined, { signal }),
              now: Date.now,
              deadline: started + ports.replyTimeoutMs,
            },
          }),
        });
      },
      announce: async (asked) => {
        const request = onGitHub(asked);
        const octokit = await installation(request.installationId).catch(() => null);
        if (octokit === null) return null;
        // The queued run is a courtesy (the job opens one if there is none): a short retry, not the
        // review's, so an unreachable GitHub does not add a series of retries before the review starts.
        retryWithin(octokit, Date.now() + ANNOUNCE_RETRY_MS);
        return await checkRuns.announce(octokit, request, request.headSha);
      },
      cancel: async (asked, checkRunId, reason) => {
        const request = onGitHub(asked);
        await checkRuns.cancel(await installation(request.installationId), request, checkRunId, reason);
      },
      routes: [],
      recovery,
      close: () => {},
    };
  },
} satisfies Forge<GitHubSetup>;

/** The handlers only map and enqueue; every other event the App receives is counted, not handled. */
function registerHandlers<W extends WorkspaceHandle>(
  setup: GitHubSetup,
  context: ForgeContext<W>,
  botLogin: () => Promise<string>,
): void {
  const { probot: app } = setup;
  const { metrics } = context;
  const { reviews, replies } = context.queues;
  app.on(
    [...HANDLED_EVENTS],
    createReviewHandler({
      queue: reviews,
      metrics,
      appId: setup.appId,
      rerunIdentifier: RERUN_ACTION.identifier,
    }),
  );
  app.on(
    [...CONVERSATION_EVENTS],
    createCommentHandler({
      botLogin,
      enqueueReview: (request) => reviews.enqueue(request),
      enqueueReply: (request) => replies.enqueue(request),
      onOutcome: (event, outcome) => metrics.webhookDelivery(event, outcome),
      permissions: createPermissionCache(context.now ? { now: context.now } : {}),
    }),
  );
  app.on("push", organisationPushHandler(context, metrics, app.log));
  const known: readonly string[] = [...HANDLED_EVENTS, ...CONVERSATION_EVENTS, "push"];
  app.onAny((event) => {
    if (!known.includes(event.name)) metrics.webhookDelivery(event.name, "ignored");
  });
  app.onError(async (error) => {
    const failure = deliveryFailure(error);
    metrics.webhookDelivery(failure.event, failure.outcome);
  });
}

/** The registry gives GitHub only its own requests: this says so to the types. */
function onGitHub<R extends ForgeTag>(request: R): R & GitHubTag {
  if (request.forge !== "github") throw new Error(`a ${request.forge} job given to GitHub`);
  return request as R & GitHubTag;
}

function botLoginOf(app: Probot, given: string | undefined): () => Promise<string> {
  if (given !== undefined) return () => Promise.resolve(given);
  return createBotLoginLookup(async () => (await app.auth()) as unknown as AppClient);
}

/** In a fleet a dead replica's runs are taken over, not cancelled: a journal would cancel them. */
function openRunsJournal(app: Probot, stateDir: string | null, fleet: boolean): OpenRunsJournal {
  if (fleet && stateDir !== null) app.log.warn({}, "LOUPE_STATE_DIR is ignored with REDIS_URL");
  return stateDir === null || fleet ? NO_JOURNAL : createOpenRunsJournal(stateDir, app.log);
}
