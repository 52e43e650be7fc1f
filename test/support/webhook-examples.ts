// Real webhook payloads from @octokit/webhooks-examples (GitHub's own documented examples). Tests
// take a deep copy and adapt only what they must (installation id, app id, SHAs, external_id),
// and say so where they do.

import { createRequire } from "node:module";

interface ExampleGroup {
  readonly name: string;
  readonly examples: ReadonlyArray<Record<string, unknown>>;
}

const require = createRequire(import.meta.url);
const groups = require("@octokit/webhooks-examples") as ExampleGroup[];

// biome-ignore lint/suspicious/noExplicitAny: payloads are edited freely by tests, like JSON.
export type ExamplePayload = any;

/** The first example for event.action that has an installation (the one Probot can act on). */
export function webhookExample(event: string, action: string | undefined): ExamplePayload {
  const group = groups.find((g) => g.name === event);
  const candidates = (group?.examples ?? []).filter((e) => e.action === action);
  const example = candidates.find((e) => e.installation !== undefined) ?? candidates[0];
  if (!example) throw new Error(`no webhook example for ${event}.${action}`);
  return structuredClone(example);
}
