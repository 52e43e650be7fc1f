// Everything decided before any repository content is fetched: the pull request, the settings from
// their layers (the organisation's file, the repository's), whose pull request it is, the change
// and its guidance. Each decision may end the review.

import { rulesOfPaths } from "../config/directory-rules.ts";
import {
  GIT_ATTRIBUTES_BYTES,
  type GitAttributes,
  gitAttributes,
  NO_ATTRIBUTES,
} from "../config/git-attributes.ts";
import { TimeSlices } from "../domain/time-slices.ts";
import { loadGuidance } from "../guidance/load-guidance.ts";
import type { PullRequestHost } from "../host/pull-request-host.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import { countedRules, withSettings } from "./applied-settings.ts";
import { decideAuthor } from "./author-step.ts";
import { selectChange } from "./change-step.ts";
import { mentionOf } from "./command-text.ts";
import { cancellation, type ReviewOutcome, skipped } from "./review-outcome.ts";
import type { ReviewPorts } from "./review-ports.ts";
import type { ReviewRun } from "./review-run.ts";
import type { Prepared } from "./reviewed-facts.ts";
import { decideSettings } from "./settings-step.ts";

/** Everything decided before any repository content is fetched: whether, and what, to review. */
export async function prepareReview<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  ports: ReviewPorts<W>,
  run: ReviewRun,
): Promise<Prepared | ReviewOutcome> {
  const pullRequest = await host.pullRequest();
  const runId = await run.started(pullRequest);
  if (!pullRequest.open) return skipped("closed", `The ${host.words.change} is closed.`);
  const settings = await decideSettings({
    configFile: await host.repoConfig(),
    organisationFile: (await host.organisationConfig?.()) ?? null,
    operator: operatorLayer(run),
    parse: ports.parseRepoConfig,
    pullRequest,
    asked: run.asked,
    words: host.words,
    ...mentionOf(run),
  });
  if (settings.kind !== "settings") return settings;
  const { config } = settings;
  const shown = (outcome: ReviewOutcome) => withSettings(outcome, settings.applied);
  const author = await decideAuthor({
    operatorPolicy: run.authorPolicy,
    config,
    pullRequest,
    asked: run.asked,
    people: host.people,
    words: host.words,
    ...mentionOf(run),
  });
  if (author !== null) return shown(author);
  const changes = await host.changes(pullRequest);
  const change = await selectChange(changes, config, host.words, await readGitAttributes(host));
  if (change.kind !== "change") return shown(change);
  const guidance = await loadGuidance({
    source: host.guidance.source,
    config,
    changedFiles: change.reviewable.map((f) => f.filename),
  });
  const ruleOf = await rulesOfPaths(
    config,
    change.reviewable.map((f) => f.filename),
    new TimeSlices(),
  );
  return (
    cancellation(run.signal) ?? {
      kind: "prepared",
      pullRequest,
      runId,
      config,
      settings: countedRules(settings.applied, ruleOf),
      ruleOf,
      changes,
      reviewable: change.reviewable,
      skippedFiles: change.skippedFiles,
      leftOut: change.leftOut,
      guidance,
    }
  );
}

/** What the operator's environment sets that bounds every repository's settings, as the layers show it. */
function operatorLayer(run: ReviewRun): { readonly source: string; readonly keys: readonly string[] } {
  return {
    source: "the operator's settings",
    keys: [
      `AUTO_REVIEW_AUTHORS=${run.authorPolicy}`,
      ...(run.budget === undefined ? [] : ["the installation's budget"]),
    ],
  };
}

/**
 * The base's `.gitattributes`, read where guidance is (the default branch, never the head). Absent,
 * too large or unreadable, the review goes on without it: it only leaves files out.
 */
async function readGitAttributes(host: PullRequestHost<WorkspaceHandle>): Promise<GitAttributes> {
  try {
    const read = await host.guidance.source.read(".gitattributes", GIT_ATTRIBUTES_BYTES);
    return read.kind === "found" ? gitAttributes(new TextDecoder().decode(read.bytes)) : NO_ATTRIBUTES;
  } catch {
    return NO_ATTRIBUTES;
  }
}
