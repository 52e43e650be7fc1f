// An HTTPS server on 127.0.0.1 with a certificate of its own making (self-signed, made by
// openssl for the address 127.0.0.1), passing every request on to an HTTP server behind it: a
// self-managed GitLab behind an internal certificate, as Loupe meets one.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { requireProgram } from "./programs.ts";

export interface HttpsProxy {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  /** The certificate's PEM file: what NODE_EXTRA_CA_CERTS names to trust it. */
  readonly certificateFile: string;
  stop(): Promise<void>;
}

export async function startHttpsProxy(target: string): Promise<HttpsProxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-https-"));
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  execFileSync(
    requireProgram("openssl"),
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert],
      ...["-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
    ],
    { stdio: "ignore" },
  );
  const behind = new URL(target);
  const server = https.createServer(
    { key: fs.readFileSync(key), cert: fs.readFileSync(cert) },
    (req, res) => {
      const forwarded = http.request(
        {
          host: behind.hostname,
          port: behind.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: behind.host },
          agent: false,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on("error", () => res.writeHead(502).end());
      req.pipe(forwarded);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    certificateFile: cert,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
