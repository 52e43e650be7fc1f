// The process logger's redaction, on a real pino with the options `npm start` uses, writing into an
// array: credential headers are censored wherever a logged object carries them, and every string
// logged loses bearer/basic credentials, registered secrets and credential query parameters.

import { Writable } from "node:stream";
import { describe, expect, it } from "@jest/globals";
import { pino } from "pino";
import { registerSecret } from "../../../src/domain/redact.ts";
import { logOptions } from "../../../src/log/create-log.ts";
import { redactCredentialParams } from "../../../src/log/credential-params.ts";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) if (line !== "") lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino(logOptions({ level: "trace", messageKey: "msg" }), stream), lines };
}

describe("credential query parameters", () => {
  it.each([
    ["/x?token=abc", "/x?token=[REDACTED]"],
    ["/cb?code=1a2b&state=ff00&page=3", "/cb?code=[REDACTED]&state=[REDACTED]&page=3"],
    ["https://h/p?X-Amz-Signature=9f&X-Amz-Date=1", "https://h/p?X-Amz-Signature=[REDACTED]&X-Amz-Date=1"],
    // A value runs to the next & or ;: what follows a ? inside it is hidden with it.
    ["/p;jsessionid=s1?a=1", "/p;jsessionid=[REDACTED]"],
    ["/x?%74oken=abc", "/x?%74oken=[REDACTED]"],
    [
      "GET /metrics?client_secret=s&api_key=k 200",
      "GET /metrics?client_secret=[REDACTED]&api_key=[REDACTED] 200",
    ],
  ])("%s", (text, redacted) => {
    expect(redactCredentialParams(text)).toBe(redacted);
  });

  it("leaves ordinary parameters, empty values and text without a query alone", () => {
    for (const text of ["/queues/api/queues?activeQueue=loupe-reviews&status=active", "/x?token=", "a = b"]) {
      expect(redactCredentialParams(text)).toBe(text);
    }
  });
});

describe("the process logger", () => {
  it("censors credential headers in request, response and error objects", () => {
    const { log, lines } = capture();
    log.info({
      headers: { authorization: "Bearer top", accept: "*/*" },
      req: { headers: { cookie: "sid=1", "proxy-authorization": "Basic cHJveHk=" } },
      res: { headers: { "set-cookie": ["a=1"] } },
      err: { request: { headers: { authorization: "token ghs_x" } } },
    });
    expect(lines[0]).toMatchObject({
      headers: { authorization: "[REDACTED]", accept: "*/*" },
      req: { headers: { cookie: "[REDACTED]", "proxy-authorization": "[REDACTED]" } },
      res: { headers: { "set-cookie": "[REDACTED]" } },
      err: { request: { headers: { authorization: "[REDACTED]" } } },
    });
  });

  it("redacts the message, format arguments and top-level string fields", () => {
    const { log, lines } = capture();
    const release = registerSecret("registered-secret-value");
    try {
      log.warn(
        { url: "/healthz?access_token=t0k3n", note: "had registered-secret-value" },
        "GET %s with Authorization: Bearer abcdefghijkl",
        "/m?password=hunter22",
      );
    } finally {
      release();
    }
    const line = JSON.stringify(lines[0]);
    for (const leaked of ["t0k3n", "registered-secret-value", "abcdefghijkl", "hunter22"]) {
      expect(line).not.toContain(leaked);
    }
    expect(lines[0]).toMatchObject({ url: "/healthz?access_token=[REDACTED]" });
    expect(lines[0]!.msg).toBe("GET /m?password=[REDACTED] with Authorization: Bearer [REDACTED]");
  });
});
