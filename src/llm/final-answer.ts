// What the tool loop must end with. There is one loop; a review and a reply in a review thread
// differ only in their final answer: its checks, the instruction of the final-answer round, the
// words of the repair request, and which text fields could carry tool-call marker text.

export type AnswerVerdict<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly failures: readonly string[] };

export interface FinalAnswer<T> {
  /** The last user message of the round sent when a budget is used up (no tool may be called). */
  readonly finalInstruction: string;
  /** Validates a stop turn's content; failures are Loupe's own words, bounded. */
  validate(content: unknown): Promise<AnswerVerdict<T>>;
  /** The one repair request, listing the checks the answer failed. */
  repairInstruction(failures: readonly string[]): string;
  /** The answer with each of its model-written texts passed through `edit`. */
  mapText(answer: T, edit: (text: string) => string): T;
}
