// The process logger's bounds, on a real pino with the options and the output stage `npm start`
// uses: an error that drags a whole webhook delivery along (as Probot's do) becomes a short line
// without the payload's text, every string is cut, and a child's `name` appears once per line.

import { Writable } from "node:stream";
import { describe, expect, it } from "@jest/globals";
import { pino } from "pino";
import { boundedLines, MAX_LINE_TEXT_CHARS, MAX_STRING_CHARS } from "../../../src/log/bounded-line.ts";
import { logOptions } from "../../../src/log/create-log.ts";
import { duplicateKeys } from "../../support/json-lines.ts";

function capture() {
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(
        ...chunk
          .toString("utf8")
          .split("\n")
          .filter((line) => line !== ""),
      );
      done();
    },
  });
  const stage = boundedLines();
  stage.pipe(sink);
  const log = pino(logOptions({ level: "info", messageKey: "msg" }), stage);
  const flushed = () => new Promise((resolve) => setImmediate(resolve));
  return { log, raw, flushed };
}

const BODY = `Secret plan ${"lorem ipsum ".repeat(3_500)}`;

/** What Probot's webhook error handler logs: the handler's error with the delivery attached. */
function deliveryError(): Error {
  const error = new Error("the shared queue cannot take jobs") as Error & { event: unknown };
  error.event = {
    id: "d-1",
    name: "pull_request",
    payload: { action: "opened", pull_request: { title: "A title", body: BODY, labels: [] } },
  };
  return error;
}

describe("log line bounds", () => {
  it("logs a failed delivery's error without its payload, in a short line", async () => {
    const { log, raw, flushed } = capture();
    log.child({ name: "event", id: "d-1" }).error(deliveryError());
    await flushed();
    expect(raw).toHaveLength(1);
    const line = raw[0]!;
    expect(line.length).toBeLessThan(MAX_LINE_TEXT_CHARS + 2_000);
    expect(line).not.toContain("Secret plan");
    expect(line).not.toContain("A title");
    expect(JSON.parse(line)).toMatchObject({
      msg: "the shared queue cannot take jobs",
      err: { type: "Error", event: { id: "d-1", name: "pull_request" } },
    });
  });

  it("cuts every string, nested ones included, and the line's total text", async () => {
    const { log, raw, flushed } = capture();
    const long = "x".repeat(50_000);
    log.info({ title: long, nested: { deeper: { text: long, list: Array(100).fill(long) } } }, long);
    await flushed();
    const line = JSON.parse(raw[0]!) as { title: string; msg: string };
    expect(line.title.length).toBeLessThanOrEqual(MAX_STRING_CHARS + 1);
    expect(line.msg.length).toBeLessThanOrEqual(MAX_STRING_CHARS + 1);
    expect(raw[0]!.length).toBeLessThan(MAX_LINE_TEXT_CHARS + 2_000);
  });

  it("writes each key once, however deep the children that rename the logger", async () => {
    const { log, raw, flushed } = capture();
    log.child({ name: "webhooks" }).child({ name: "event" }).info({ name: "x" }, "hello");
    await flushed();
    expect(duplicateKeys(raw[0]!)).toEqual([]);
    expect(JSON.parse(raw[0]!)).toMatchObject({ name: "x", msg: "hello" });
  });
});
