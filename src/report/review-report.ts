// What a review reports, whatever the forge shows it as (a check run, or a commit status and a
// summary note): its verdict, a title, a summary and the longer text.

export type CheckConclusion = "success" | "failure" | "neutral" | "cancelled" | "skipped" | "action_required";

export interface CheckRunOutput {
  readonly title: string;
  readonly summary: string;
  readonly text?: string;
}
