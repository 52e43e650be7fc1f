// Sorts every finding of a final review into exactly one bucket — inline comment, review body
// ("outside"), below its file's min_severity, or already posted — so nothing is dropped
// silently. Higher severities get the inline slots first when maxInline is reached. Each file's
// patch is parsed, and its code read, once however many findings name it, and a finding's code is
// one slice of that: the work is linear in the findings and the files' lines.

import type { ChangedFile } from "../domain/changed-file.ts";
import type { Finding, Severity } from "../domain/finding.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import type { TimeSlices } from "../domain/time-slices.ts";
import { anchorFinding, findingRange } from "./anchor-finding.ts";
import { FileCode } from "./file-code.ts";
import { findingIdentity } from "./finding-identity.ts";
import { fingerprintCode } from "./fingerprint.ts";
import { type LedgerEntry, matchLedger } from "./ledger.ts";
import { type Hunk, parsePatch, parsePatchInSlices } from "./patch-hunks.ts";
import type { PlannedComment, PlannedOutside, PublishPlan } from "./plan-types.ts";
import { renderInlineComment } from "./render-inline.ts";
import type { RepositoryRef } from "./repository-link.ts";
import { isAtLeast, severityRank } from "./severity.ts";

export interface PlanReviewInput {
  readonly findings: readonly Finding[];
  /** What anchoring reads of each changed file: its name and its hunks. */
  readonly files: readonly Pick<ChangedFile, "filename" | "patch">[];
  /** The head text of each file a finding names, or its code already read from it (file-code.ts). */
  readonly headTexts: ReadonlyMap<string, string | FileCode>;
  /** The least severity shown: one for every file, or each file's own (its directory rule's). */
  readonly minSeverity: Severity | ((path: string) => Severity);
  readonly maxInline: number;
  /** Fingerprints found in Loupe's earlier comments and review bodies on this pull request. */
  readonly alreadyPosted: ReadonlySet<string>;
  /** Loupe's findings on this pull request and their status (ledger.ts); none on a local review. */
  readonly ledger?: readonly LedgerEntry[];
  readonly repository: RepositoryRef;
  /** The forge's words, for what an inline comment says of it. */
  readonly words: ForgeWords;
}

/** What planning needs of one path, worked out once however many findings name it. */
interface PathFacts {
  readonly file: Pick<ChangedFile, "filename" | "patch"> | undefined;
  readonly hunks: readonly Hunk[];
  /** Its code at the head, from the head text or else from the patch's RIGHT lines. */
  readonly code: FileCode;
}

function pathFacts(file: PathFacts["file"], head: string | FileCode | undefined): PathFacts {
  const hunks = parsePatch(file?.patch ?? "");
  const code =
    head instanceof FileCode
      ? head
      : head !== undefined
        ? FileCode.fromText(head)
        : FileCode.fromHunks(hunks);
  return { file, hunks, code };
}

export function planReview(input: PlanReviewInput): PublishPlan {
  const planner = new Planner(input);
  for (const finding of planner.ordered) planner.place(finding);
  return planner.plan;
}

/**
 * `planReview` for a server: each named file's patch is parsed and its code read a few thousand
 * lines at a time, and findings are placed, with turns of the event loop in between.
 */
export async function planReviewInSlices(input: PlanReviewInput, slices: TimeSlices): Promise<PublishPlan> {
  const planner = new Planner(input);
  for (const path of new Set(input.findings.map((finding) => finding.path))) {
    const file = planner.files.get(path);
    const hunks = await parsePatchInSlices(file?.patch ?? "", slices);
    const head = input.headTexts.get(path);
    const code =
      head instanceof FileCode
        ? head
        : head !== undefined
          ? await FileCode.fromTextInSlices(head, slices)
          : await FileCode.fromHunksInSlices(hunks, slices);
    planner.known.set(path, { file, hunks, code });
  }
  for (const finding of planner.ordered) {
    planner.place(finding);
    await slices.pause();
  }
  return planner.plan;
}

class Planner {
  readonly plan: PublishPlan = {
    inline: [],
    outside: [],
    belowThreshold: [],
    duplicates: [],
    dismissed: [],
    raised: new Set(),
    placed: [],
  };
  /** Stable sort: the model's order is kept within one severity. */
  readonly ordered: readonly Finding[];
  private readonly input: PlanReviewInput;
  readonly files: ReadonlyMap<string, NonNullable<PathFacts["file"]>>;
  /** Each path's facts, worked out on its first finding unless set before. */
  readonly known = new Map<string, PathFacts>();
  private readonly seen = new Set<string>();

  constructor(input: PlanReviewInput) {
    this.input = input;
    this.files = new Map(input.files.map((file) => [file.filename, file]));
    this.ordered = input.findings
      .map((finding, index) => ({ finding, index }))
      .sort(
        (a, b) => severityRank(b.finding.severity) - severityRank(a.finding.severity) || a.index - b.index,
      )
      .map((entry) => entry.finding);
  }

  place(finding: Finding): void {
    const { plan, input } = this;
    const least =
      typeof input.minSeverity === "function" ? input.minSeverity(finding.path) : input.minSeverity;
    if (!isAtLeast(finding.severity, least)) {
      plan.belowThreshold.push(finding);
      return;
    }
    const facts = this.factsOf(finding.path);
    const anchor = anchorFinding(finding, facts.file, facts.hunks);
    const [first, last] = findingRange(finding);
    const code = finding.line === null ? "" : facts.code.code(first, last);
    const fingerprint = fingerprintCode(finding.path, code, finding.title);
    plan.raised.add(fingerprint);
    const identity = findingIdentity({ ...finding, code });
    const match = matchLedger(identity, input.ledger ?? []);
    // A reworded finding is still the one on the ledger: its thread stays open under the old mark.
    if (match.kind === "known" && match.entry.fingerprint !== null) plan.raised.add(match.entry.fingerprint);
    const lines = finding.line === null ? null : ([first, last] as const);
    const placed = { finding, fingerprint, identity, raisedAgain: false, lines };
    if (match.kind === "known" && match.entry.status !== "open") {
      plan.dismissed.push(finding);
      const status = match.entry.status === "withdrawn" ? "withdrawn" : "dismissed";
      plan.placed.push({ ...placed, status, posted: "none" });
      return;
    }
    if (input.alreadyPosted.has(fingerprint) || this.seen.has(fingerprint) || match.kind === "known") {
      plan.duplicates.push(finding);
      plan.placed.push({ ...placed, status: "open", posted: "none" });
      return;
    }
    this.seen.add(fingerprint);
    const raisedAgain = match.kind === "raised_again";
    const fresh = { ...placed, status: "new", raisedAgain } as const;
    if (anchor.kind === "outside" || plan.inline.length >= input.maxInline) {
      const reason = anchor.kind === "outside" ? anchor.reason : "inline_limit";
      plan.outside.push({ finding, reason, fingerprint, identity } satisfies PlannedOutside);
      plan.placed.push({ ...fresh, posted: "body" });
      return;
    }
    const marks = { fingerprint, identity, raisedAgain };
    const body = renderInlineComment(finding, anchor, marks, anchor.fullRange, input.repository, input.words);
    const range =
      anchor.startLine === undefined ? {} : { start_line: anchor.startLine, start_side: "RIGHT" as const };
    plan.inline.push({
      path: anchor.path,
      line: anchor.line,
      ...range,
      side: "RIGHT",
      body,
      fingerprint,
      finding,
      identity,
    } satisfies PlannedComment);
    plan.placed.push({ ...fresh, posted: "inline" });
  }

  private factsOf(path: string): PathFacts {
    let facts = this.known.get(path);
    if (facts === undefined) {
      facts = pathFacts(this.files.get(path), this.input.headTexts.get(path));
      this.known.set(path, facts);
    }
    return facts;
  }
}
