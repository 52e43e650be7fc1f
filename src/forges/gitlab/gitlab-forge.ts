// The GitLab forge, served on its own route of the App's server (/api/gitlab/webhooks): merge
// request events to the shared review queue, note events to the conversation. Its jobs run in the
// same queues as GitHub's (their keys prefixed gitlab:): the one review job on the GitLab host,
// reported by a commit status and one summary note (gitlab-review.ts), and the one reply job in
// Loupe's discussions. GitLab's waits (429, Retry-After) end with each job's own time; the token's
// user, whom the texts mention and whose notes are Loupe's, is looked up once for the process.

import { setTimeout as wait } from "node:timers/promises";
import { createPermissionCache } from "../../conversation/permission-cache.ts";
import type { Forge, ForgeContext, ServedForge } from "../../forge/forge.ts";
import type { WorkspaceHandle } from "../../workspace/types.ts";
import { type GitLabSetup, gitLabStartCheck } from "./check-access.ts";
import { gitLabApi, NO_RETRY, tokenUser } from "./gitlab-api.ts";
import { createGitLabCommentHandler } from "./gitlab-comment-handler.ts";
import { gitLabHost } from "./gitlab-host.ts";
import { gitLabReview } from "./gitlab-review.ts";
import { createGitLabWebhook, GITLAB_WEBHOOK_PATH } from "./gitlab-webhook.ts";

export type { GitLabSetup } from "./check-access.ts";

export const GITLAB_FORGE = {
  id: "gitlab",
  checkAtStart: gitLabStartCheck,
  start: <W extends WorkspaceHandle>(gitlab: GitLabSetup, context: ForgeContext<W>): ServedForge<W> => {
    const { url, token } = gitlab;
    const { ports, log } = context;
    const health = context.dependencies.gitlab;
    if (gitlab.untrusted !== undefined) health.failed(gitlab.untrusted.error);
    // The webhook's calls and the token's user wait for nothing: GitLab's answer now, or an error.
    const api = gitLabApi({ url, token, retry: NO_RETRY, health });
    const self = tokenUser(api);
    const { reviews, replies } = context.queues;
    const notes = createGitLabCommentHandler({
      ...{ api, self, permissions: createPermissionCache(), log },
      enqueueReview: (request) => reviews.enqueue(request),
      enqueueReply: (request) => replies.enqueue(request),
    });
    log.info({ gitlab: url }, `GitLab merge requests at ${GITLAB_WEBHOOK_PATH}`);
    const hook = createGitLabWebhook({
      secret: gitlab.webhookSecret,
      queue: () => reviews,
      notes,
      metrics: context.metrics,
      log,
    });
    return {
      review: (job) =>
        gitLabReview({
          ...{ job, ports, gitlab, log, self, health },
          sleep: context.sleep,
          now: Date.now,
        }),
      reply: async (request, signal) => (started) => ({
        host: gitLabHost({
          api: gitLabApi({
            url,
            token,
            retry: {
              sleep: (ms) => wait(ms, undefined, { signal }),
              now: Date.now,
              deadline: started + ports.replyTimeoutMs,
            },
          }),
          // A reply names no head: the host reads the merge request as it is now.
          target: { owner: request.owner, repo: request.repo, pullNumber: request.pullNumber },
          url,
          token,
          fetchWorkspace: ports.fetchWorkspace,
          self,
        }),
      }),
      routes: [hook.handle],
      recovery: Promise.resolve(),
      close: () => hook.close(),
      // A certificate not trusted is a setting to fix (NODE_EXTRA_CA_CERTS), not an outage to wait out.
      notReady: () =>
        health.downKind() === "tls"
          ? `GitLab (GITLAB_URL=${url}) presents a TLS certificate Loupe does not trust: set NODE_EXTRA_CA_CERTS to its CA certificate`
          : null,
    };
  },
} satisfies Forge<GitLabSetup>;
