// The installation's token for a git fetch, registered for redaction the moment it is known: it
// goes only to the configured git host, as a header, and no output may quote it until `release`.

import { registerSecret } from "../../domain/redact.ts";
import type { GitHubClient } from "./octokit.ts";

export async function installationToken(
  octokit: GitHubClient,
): Promise<{ readonly token: string; readonly release: () => void }> {
  const auth = (await octokit.auth({ type: "installation" })) as { token: string };
  return { token: auth.token, release: registerSecret(auth.token) };
}
