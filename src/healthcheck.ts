// The container image's HEALTHCHECK: GET /healthz at the container's own network address, the one
// a published port forwards to, not at 127.0.0.1. A server listening on the container's loopback
// only (HOST=localhost) answers 127.0.0.1 but nothing from outside, and must count as unhealthy.
// Without a non-loopback IPv4 interface (`--network none`) there is no outside: loopback is probed.
// Exit 0 healthy, 1 not.

import os from "node:os";

const outside = Object.values(os.networkInterfaces())
  .flat()
  .find((address) => address !== undefined && !address.internal && address.family === "IPv4");
const url = `http://${outside?.address ?? "127.0.0.1"}:${process.env.PORT || "3000"}/healthz`;
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(4000) });
  process.exitCode = response.ok ? 0 : 1;
} catch (error) {
  process.stderr.write(`${url}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
