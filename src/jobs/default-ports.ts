// Binds run-review's ports to the real modules: isomorphic-git workspace, tool registry, the
// OpenAI-compatible loop and the anchoring planner. The review-body, check-run texts and the
// repository-config reader here are deliberately small (see app-texts.ts / settings-from-yaml.ts)
// until the publishing core's renderers are wired in.

import type { ProviderConfig } from "../config/provider-config.ts";
import type { ReviewLimits } from "../config/review-limits.ts";
import { createOpenAiProvider } from "../llm/client.ts";
import { runReviewLoop } from "../llm/loop.ts";
import type { ChatProvider } from "../llm/provider.ts";
import { planReview } from "../review/plan-review.ts";
import { createToolRegistry } from "../tools/registry.ts";
import { readRepositoryTextFile } from "../tools/repository-file.ts";
import { fetchWorkspace } from "../workspace/fetch.ts";
import {
  finalOutput,
  findingsLine,
  progressOutput,
  renderBody,
  reviewMarker,
  skipOutput,
} from "./app-texts.ts";
import type { PlannedReview, ReviewPorts } from "./review-ports.ts";
import { settingsFromYaml } from "./settings-from-yaml.ts";

export interface DefaultPortsOptions {
  readonly provider: ProviderConfig;
  readonly limits: ReviewLimits;
  readonly gitHost: string;
  readonly includeTrace?: boolean;
  /** Injected in tests (the scripted provider); defaults to the OpenAI client. */
  readonly chatProvider?: ChatProvider;
  readonly tmpRoot?: string;
}

const MAX_INLINE = 50;

export function createDefaultPorts(options: DefaultPortsOptions): ReviewPorts {
  const chat = options.chatProvider ?? createOpenAiProvider(options.provider);
  return {
    parseRepoConfig: settingsFromYaml,
    reviewTimeoutMs: options.limits.timeoutMs,
    maxRounds: options.limits.maxRounds,
    fetchWorkspace: (input) =>
      fetchWorkspace({ ...input, ...(options.tmpRoot ? { tmpRoot: options.tmpRoot } : {}) }),
    runLoop: (input) =>
      runReviewLoop({
        provider: chat,
        tools: createToolRegistry(input.view),
        view: input.view,
        model: options.provider.model,
        prompt: {
          repository: input.repository,
          pullRequest: {
            number: input.pullRequest.number,
            url: input.pullRequest.url,
            title: input.pullRequest.title,
            body: input.pullRequest.body ?? "",
          },
          baseSha: input.mergeBaseSha,
          headSha: input.pullRequest.headSha,
          changedFiles: input.changedFiles,
          ...(input.repositoryInstructions ? { repositoryInstructions: input.repositoryInstructions } : {}),
        },
        limits: options.limits,
        includeTrace: options.includeTrace ?? true,
        signal: input.signal,
        onRound: input.onRound,
      }),
    async planReview(input): Promise<PlannedReview> {
      const findings = input.result.review?.findings ?? [];
      const headTexts = new Map<string, string>();
      for (const path of new Set(findings.map((f) => f.path))) {
        const file = await readRepositoryTextFile(input.view, path);
        if (file.ok) headTexts.set(path, file.text);
      }
      const [owner = "", repo = ""] = input.repository.split("/");
      const repository = { owner, repo, host: options.gitHost };
      const plan = planReview({
        findings,
        files: input.files.map((f) => ({
          filename: f.filename,
          status: f.status,
          patch: f.patch ?? undefined,
        })),
        headTexts,
        minSeverity: input.settings.settings.minSeverity,
        maxInline: MAX_INLINE,
        alreadyPosted: input.postedFingerprints,
        repository,
      });
      const summary = input.result.review?.summary ?? "";
      const notes = input.result.review?.notes ?? [];
      const render = (allInBody: boolean) =>
        renderBody({ plan, summary, notes, marker: input.marker, allInBody, repository });
      return {
        comments: plan.inline.map(({ path, line, side, start_line, start_side, body }) => ({
          path,
          line,
          side,
          body,
          ...(start_line === undefined ? {} : { start_line, start_side: start_side ?? "RIGHT" }),
        })),
        body: render(false),
        allInBody: () => render(true),
        findingsLine: findingsLine(plan),
        postable: plan.inline.length + plan.outside.length > 0 || (notes.length > 0 && findings.length === 0),
        gateFailed: [...plan.inline.map((c) => c.finding), ...plan.outside.map((o) => o.finding)].some((f) =>
          input.settings.settings.failsOn(f.severity),
        ),
      };
    },
    reviewMarker,
    progressOutput: (p) => progressOutput(p),
    skipOutput,
    finalOutput,
  };
}
