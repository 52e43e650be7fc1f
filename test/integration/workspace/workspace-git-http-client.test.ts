import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { authorizationHeader, mayCarryToken } from "../../../src/workspace/git-http-auth.ts";
import { createGitHttpClient } from "../../../src/workspace/git-http-client.ts";

// Two origins on 127.0.0.1: "home" redirects to "other". The token may only reach "home".
const seen: Array<{ server: string; authorization: string | undefined }> = [];
let home: http.Server;
let other: http.Server;
let homeUrl: string;
let otherUrl: string;

function listen(name: string, handler: http.RequestListener): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    seen.push({ server: name, authorization: req.headers.authorization });
    handler(req, res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

beforeAll(async () => {
  other = await listen("other", (_req, res) => res.end("other"));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  home = await listen("home", (req, res) => {
    if (req.url === "/redirect") res.writeHead(302, { Location: `${otherUrl}/landing` }).end();
    else if (req.url === "/moved-post") res.writeHead(307, { Location: "/echo" }).end();
    else if (req.url === "/see-other") res.writeHead(303, { Location: "/echo" }).end();
    else if (req.url === "/loop") res.writeHead(302, { Location: "/loop" }).end();
    else if (req.url === "/echo") void readRequest(req).then((body) => res.end(`${req.method} ${body}`));
    else res.end("home");
  });
  homeUrl = `http://127.0.0.1:${(home.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const server of [home, other]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function readRequest(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

async function read(body: AsyncIterableIterator<Uint8Array> | undefined): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body ?? []) chunks.push(chunk);
  return Buffer.concat(chunks).toString();
}

describe("git http client", () => {
  const authorization = authorizationHeader("ghs_clienttest0000000000");

  it("sends the token to the configured origin only, also across a redirect", async () => {
    seen.length = 0;
    const client = createGitHttpClient({
      origin: homeUrl,
      authorization,
      signal: new AbortController().signal,
    });
    const direct = await client.request({
      url: `${homeUrl}/x`,
      headers: { authorization: "Basic smuggled" },
    });
    expect(await read(direct.body)).toBe("home");
    const redirected = await client.request({ url: `${homeUrl}/redirect` });
    expect(await read(redirected.body)).toBe("other");
    const elsewhere = await client.request({ url: `${otherUrl}/direct` });
    await read(elsewhere.body);
    expect(seen).toEqual([
      { server: "home", authorization },
      { server: "home", authorization },
      { server: "other", authorization: undefined },
      { server: "other", authorization: undefined },
    ]);
  });

  // As fetch follows them (Fetch standard, "HTTP-redirect fetch"): 307 repeats the request, 303
  // turns it into a GET without a body, and a loop ends in an error.
  it("follows redirects as fetch does: 307 keeps the POST and its body, 303 becomes a GET", async () => {
    seen.length = 0;
    const client = createGitHttpClient({
      origin: homeUrl,
      authorization,
      signal: new AbortController().signal,
    });
    const post = (url: string) =>
      client.request({
        url,
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: (async function* () {
          yield Buffer.from("wants");
        })(),
      });
    expect(await read((await post(`${homeUrl}/moved-post`)).body)).toBe("POST wants");
    const seeOther = await post(`${homeUrl}/see-other`);
    expect(await read(seeOther.body)).toBe("GET ");
    expect(seeOther.url).toBe(`${homeUrl}/echo`);
    expect(
      seen.every((request) => request.server === "home" && request.authorization === authorization),
    ).toBe(true);
    await expect(client.request({ url: `${homeUrl}/loop` })).rejects.toThrow(/redirects/);
  });

  it("refuses to start a request once the signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const client = createGitHttpClient({ origin: homeUrl, signal: controller.signal });
    await expect(client.request({ url: `${homeUrl}/x` })).rejects.toThrow();
  });

  it("compares origins by scheme, host and port", () => {
    expect(mayCarryToken("https://github.com/o/r.git/info/refs", "https://github.com")).toBe(true);
    expect(mayCarryToken("http://github.com/o/r.git/info/refs", "https://github.com")).toBe(false);
    expect(mayCarryToken("https://github.com:8443/o/r.git", "https://github.com")).toBe(false);
    expect(mayCarryToken("https://evil.example/o/r.git", "https://github.com")).toBe(false);
    expect(mayCarryToken("::not a url", "https://github.com")).toBe(false);
  });
});
