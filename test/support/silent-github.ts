// A GitHub that accepts connections and never answers: what a review meets when GitHub is
// unreachable behind a proxy or a half-open network. Counts the connections it holds, so a test
// knows a request is stuck on it; `stop` destroys them.

import net from "node:net";
import { generateAppKey } from "./fake-github-auth.ts";

export interface SilentGitHub {
  /** host:port, for GHE_HOST. */
  readonly host: string;
  readonly appId: string;
  readonly privateKey: string;
  /** Connections accepted so far. */
  connections(): number;
  stop(): Promise<void>;
}

export async function startSilentGitHub(): Promise<SilentGitHub> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    appId: "4243",
    privateKey: generateAppKey().privateKey,
    connections: () => accepted,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
