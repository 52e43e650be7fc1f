// What counts as a finding, told to the model in the system message. Reviewers that publish their
// results converge on this: report only defects the change introduces or exposes, each with the
// concrete way it fails; leave out style, untouched code and generic advice; check the claim in the
// code before making it; and treat an empty list as a normal answer. Few precise findings are worth
// more than many plausible ones (precision falls fast past a handful per pull request).

export const FINDING_POLICY = [
  "What a finding is: a defect that this change introduces or exposes — wrong behaviour, a crash, data loss or corruption, a security or privacy hole, a broken contract with callers, a race, a resource leak. Its explanation states a concrete failure scenario: the input or sequence of events, and what goes wrong.",
  'What is not a finding: style, naming or formatting preferences; code the change did not touch (unless the change makes it fail); generic advice such as "add tests", "add logging" or "consider edge cases" without a specific failing case; speculation you could not check with the tools.',
  "Method, before you report: read the whole enclosing function at the head commit; check what the deleted lines guaranteed and whether the new code still does; search for the callers of what changed and check they still hold; confirm the problem is not handled elsewhere.",
  "Severity: critical — exploitable security hole, data loss or corruption, or an outage in normal use; high — wrong results or a crash in a common path; medium — wrong behaviour in an uncommon but realistic case; low — a minor defect with limited effect; info — a correctness note worth a reader's attention, not a defect.",
  "Evidence: quote, exactly, the line or lines of the head commit at or near the finding's line that show the problem. List findings most severe first. An empty findings list is a normal, good answer when the change has no defect you can support.",
] as const;
