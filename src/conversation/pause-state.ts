// Whether automatic reviews on push are paused for one pull request. The state lives on GitHub as
// a label on the pull request, so every replica and every restart reads the same answer, at no
// cost: the push event itself lists the labels (and pulls.get does for re-runs). A label is also
// visible, and a writer can lift the pause from the sidebar as well as with `@<slug> resume`.

export const PAUSE_LABEL = "loupe-paused";

export function isPaused(labels: readonly string[]): boolean {
  return labels.some((name) => name.toLowerCase() === PAUSE_LABEL);
}

/** Label names from a webhook or REST pull request's `labels[]` (objects with a name, or strings). */
export function labelNames(labels: unknown): string[] {
  if (!Array.isArray(labels)) return [];
  const names: string[] = [];
  for (const label of labels) {
    const name = typeof label === "string" ? label : (label as { name?: unknown } | null)?.name;
    if (typeof name === "string") names.push(name);
  }
  return names;
}
