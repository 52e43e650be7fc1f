// WEBHOOK_PROXY_URL, for development: smee-client subscribes to the channel and posts each delivery
// to this server's webhook path, where it is checked like any other. Started once the server
// listens, as Probot's own server did. smee-client is loaded only then: it brings undici, about
// 0.2 s of CPU at start for a process without a proxy.

import type { SmeeClient } from "smee-client";

export interface WebhookProxyOptions {
  readonly source: string | undefined;
  /** This server's webhook URL. */
  readonly target: string;
  readonly log: Pick<Console, "info" | "error">;
}

export async function startWebhookProxy(options: WebhookProxyOptions): Promise<SmeeClient | null> {
  if (options.source === undefined || options.source === "") return null;
  const { SmeeClient } = await import("smee-client");
  const client = new SmeeClient({
    source: options.source,
    target: options.target,
    logger: options.log,
  });
  await client.start();
  return client;
}
