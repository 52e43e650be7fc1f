// The GitHub Action's entry (bundled into dist-action/index.js, which action.yml runs on GitHub's
// node24): the review of the triggering event's pull request, with the runner's environment.

import { annotation } from "./action/action-log.ts";
import { runAction } from "./action/run-action.ts";

const controller = new AbortController();
const cancel = (): void => controller.abort();
process.once("SIGINT", cancel);
process.once("SIGTERM", cancel);

try {
  process.exitCode = await runAction({
    env: process.env,
    stdout: (line) => process.stdout.write(`${line}\n`),
    signal: controller.signal,
  });
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(`${annotation("error", `Loupe failed: ${message}`)}\n`);
  process.exitCode = 1;
}
