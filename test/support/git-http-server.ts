// A real smart-HTTP git server for tests: a small node:http CGI bridge in front of
// `git http-backend`, on 127.0.0.1 and an ephemeral port. The handler can also be mounted under a
// path prefix of another server (the GitHub App end-to-end test serves REST on the same port).
//
//   const server = await startGitHttpServer({ requireToken: "ghs_x" });
//   publishRepository(server.root, "owner/repo", fixture);   // a bare copy under the root
//   await fetchSomething(server.url("owner/repo"));           // http://127.0.0.1:PORT/owner/repo.git
//   server.requests                                           // every request: method, url, headers
//   await server.stop();

import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { gitEnvironment } from "./git-fixture.ts";
import { requireProgram } from "./programs.ts";

// In `git --exec-path` or where GIT_HTTP_BACKEND says; looked up once, not per request.
let backendPath: string | undefined;
const httpBackend = () => {
  backendPath ??= requireProgram("git-http-backend");
  return backendPath;
};

export interface RecordedRequest {
  readonly method: string;
  /** Path and query exactly as received (so tests can assert what never appears in a URL). */
  readonly url: string;
  readonly headers: Readonly<http.IncomingHttpHeaders>;
}

export interface GitHttpHandlerOptions {
  /** Directory holding the bare repositories (`<root>/<name>.git`). */
  readonly root: string;
  /** Mount point, e.g. "/git"; requests outside it are not taken. Default: "". */
  readonly prefix?: string;
  /** Answer 401 unless `Authorization` is Basic x-access-token:TOKEN or Bearer TOKEN. */
  readonly requireToken?: string;
  /** Every request taken is appended here. */
  readonly requests?: RecordedRequest[];
  /** Called before a request is served (after recording); may delay it, or abort a client. */
  readonly onRequest?: (request: RecordedRequest) => void | Promise<void>;
}

/** Returns a handler that serves git requests under `prefix` and returns false for the rest. */
export function createGitHttpHandler(
  options: GitHttpHandlerOptions,
): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  const prefix = options.prefix ?? "";
  // The root doubles as the backend's HOME: private, and removed with the repositories.
  const home = options.root;
  return (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (prefix !== "" && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return false;
    const record: RecordedRequest = {
      method: req.method ?? "GET",
      url: req.url ?? "/",
      headers: { ...req.headers },
    };
    options.requests?.push(record);
    void Promise.resolve(options.onRequest?.(record)).then(() => {
      // The client may have gone while a hook delayed it: a backend spawned now would wait for a
      // request body that never comes, and keep the test process alive.
      if (req.destroyed || res.destroyed) return;
      if (
        options.requireToken !== undefined &&
        !authorized(req.headers.authorization, options.requireToken)
      ) {
        req.resume();
        res.writeHead(401, { "WWW-Authenticate": 'Basic realm="loupe-test"', "Content-Type": "text/plain" });
        res.end("authentication required\n");
        return;
      }
      runBackend(req, res, {
        root: options.root,
        home,
        pathInfo: url.pathname.slice(prefix.length),
        query: url.search,
      });
    });
    return true;
  };
}

function authorized(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const basic = `Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
  return header === basic || header === `Bearer ${token}`;
}

interface BackendRequest {
  readonly root: string;
  readonly home: string;
  readonly pathInfo: string;
  readonly query: string;
}

function runBackend(req: http.IncomingMessage, res: http.ServerResponse, request: BackendRequest): void {
  const header = (name: string): string => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(", ") : (value ?? "");
  };
  const env: NodeJS.ProcessEnv = {
    ...gitEnvironment(request.home),
    GIT_PROJECT_ROOT: request.root,
    GIT_HTTP_EXPORT_ALL: "1",
    PATH_INFO: request.pathInfo,
    QUERY_STRING: request.query.replace(/^\?/, ""),
    REQUEST_METHOD: req.method ?? "GET",
    CONTENT_TYPE: header("content-type"),
    GIT_PROTOCOL: header("git-protocol"),
    HTTP_CONTENT_ENCODING: header("content-encoding"),
    REMOTE_ADDR: req.socket.remoteAddress ?? "127.0.0.1",
  };
  if (req.headers["content-length"] !== undefined) env.CONTENT_LENGTH = header("content-length");
  const child = spawn(httpBackend(), [], { env, stdio: ["pipe", "pipe", "pipe"] });
  req.pipe(child.stdin);
  child.stdin.on("error", () => {}); // the backend may exit before reading a refused body
  child.stderr.resume();
  res.on("close", () => {
    if (child.exitCode === null) child.kill();
  });
  req.on("close", () => {
    if (!req.complete && child.exitCode === null) child.kill();
  });

  let head = Buffer.alloc(0);
  let headerDone = false;
  child.stdout.on("data", (chunk: Buffer) => {
    if (headerDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = findHeaderEnd(head);
    if (end === undefined) return;
    headerDone = true;
    writeCgiHead(res, head.subarray(0, end.index).toString("latin1"));
    res.write(head.subarray(end.index + end.length));
  });
  child.on("close", () => {
    if (!headerDone && !res.headersSent) res.writeHead(502).end("git http-backend gave no response\n");
    else res.end();
  });
}

function findHeaderEnd(buffer: Buffer): { index: number; length: number } | undefined {
  const crlf = buffer.indexOf("\r\n\r\n");
  const lf = buffer.indexOf("\n\n");
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { index: crlf, length: 4 };
  return lf === -1 ? undefined : { index: lf, length: 2 };
}

function writeCgiHead(res: http.ServerResponse, text: string): void {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === "status") status = Number.parseInt(value, 10) || 500;
    else headers[name] = value;
  }
  res.writeHead(status, headers);
}

export interface GitHttpServer {
  /** Directory of the bare repositories this server exports. */
  readonly root: string;
  /** `http://127.0.0.1:PORT/<name>.git` */
  url(name: string): string;
  readonly requests: RecordedRequest[];
  stop(): Promise<void>;
}

export interface StartGitHttpServerOptions {
  readonly requireToken?: string;
  readonly onRequest?: (request: RecordedRequest) => void | Promise<void>;
  /** Use this root instead of a fresh temporary one (which `stop` then removes). */
  readonly root?: string;
}

export async function startGitHttpServer(options: StartGitHttpServerOptions = {}): Promise<GitHttpServer> {
  const root = options.root ?? fs.mkdtempSync(path.join(os.tmpdir(), "loupe-git-http-"));
  const requests: RecordedRequest[] = [];
  const handler = createGitHttpHandler({
    root,
    requests,
    requireToken: options.requireToken,
    onRequest: options.onRequest,
  });
  const server = http.createServer((req, res) => {
    if (!handler(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    root,
    requests,
    url: (name) => `http://127.0.0.1:${port}/${name.replace(/\.git$/, "")}.git`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (options.root === undefined) fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
