// The angles finder passes look from (REVIEW_FINDER_PASSES): the same change, reviewed again with
// another kind of defect first in mind. Reviewers that run several finders find defects one pass
// overlooks; what the passes find is deduplicated before verification, so an angle adds findings,
// not copies. With one pass there is no angle: the prompt is the plain review's.

export const FINDER_ANGLES = [
  "correctness — wrong results, crashes, broken contracts with callers, races and resource leaks",
  "security and data handling — untrusted input reaching queries, commands, paths or markup; authentication and authorisation; secrets; data loss, corruption and privacy",
  "the repository's own guidance — its instructions and guidance files, and the conventions the surrounding code keeps where breaking them causes a defect (not a style preference)",
] as const;

/** The prompt's line for a finder pass that looks from `angle`. */
export function angleLine(angle: string): string {
  return `This finder pass looks at the change from one angle: ${angle}. Look for defects of that kind first; a defect of another kind you find on the way is still worth reporting.`;
}
