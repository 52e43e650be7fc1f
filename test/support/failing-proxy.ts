// A GitHub that is partly away: a proxy in front of the fake GitHub that answers the requests a
// test picks with 502 Bad Gateway (as a load balancer does when GitHub's backends are down), or
// drops their connection unanswered (as a network that lost GitHub does), and forwards every other
// one untouched.

import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FailingProxy {
  /** 127.0.0.1:PORT — the value for GHE_HOST. */
  readonly host: string;
  /** How many requests were answered 502. */
  failed(): number;
  stop(): Promise<void>;
}

export async function startFailingProxy(
  target: string,
  fails: (method: string, path: string) => boolean,
  how: "bad_gateway" | "drop" = "bad_gateway",
): Promise<FailingProxy> {
  let failed = 0;
  const server = http.createServer((req, res) => {
    if (fails(req.method ?? "GET", req.url ?? "/")) {
      failed++;
      if (how === "drop") {
        req.socket.destroy();
        return;
      }
      req.resume();
      res.writeHead(502, { "content-type": "text/html" }).end("<html>Bad Gateway</html>");
      return;
    }
    const [hostname, port] = target.split(":");
    const upstream = http.request(
      {
        hostname,
        port: Number(port),
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    failed: () => failed,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
