// A webhook proxy channel like smee.io, on 127.0.0.1: clients subscribe with GET /<channel>
// (server-sent events) and every `send` reaches them as one `message` event carrying the
// delivery's headers and JSON body, in the shape smee-client forwards to its target.

import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeSmee {
  /** The channel URL, the value for WEBHOOK_PROXY_URL. */
  readonly url: string;
  /** Subscribers connected now. */
  subscribers(): number;
  send(delivery: { readonly headers: Record<string, string>; readonly body: unknown }): void;
  stop(): Promise<void>;
}

export async function startFakeSmee(): Promise<FakeSmee> {
  const clients = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || req.url !== "/loupe-channel") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write("event: ready\ndata: {}\n\n");
    clients.add(res);
    res.on("close", () => clients.delete(res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/loupe-channel`,
    subscribers: () => clients.size,
    send(delivery) {
      const data = JSON.stringify({ ...delivery.headers, body: delivery.body, timestamp: Date.now() });
      for (const client of clients) client.write(`data: ${data}\n\n`);
    },
    async stop() {
      for (const client of clients) client.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
