import { describe, expect, it } from "@jest/globals";
import { advertisesThinPack, requestThinPack } from "../../../src/workspace/thin-pack.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const pkt = (line: string): string => (line.length + 4).toString(16).padStart(4, "0") + line;

describe("thin-pack request", () => {
  it("reads the capability from the first ref line of an advertisement", () => {
    const ad = `${pkt("# service=git-upload-pack\n")}0000${pkt(`${A} HEAD\0multi_ack thin-pack side-band-64k\n`)}`;
    expect(advertisesThinPack(Buffer.from(ad, "latin1"))).toBe(true);
    const without = `${pkt(`${A} HEAD\0multi_ack side-band-64k\n`)}${pkt(`${B} refs/heads/thin-pack\n`)}`;
    expect(advertisesThinPack(Buffer.from(without, "latin1"))).toBe(false);
  });

  it("adds thin-pack to the first want line when the request has haves, keeping pkt-line lengths right", () => {
    const rest = `${pkt(`shallow ${B}\n`)}${pkt("deepen 1\n")}0000${pkt(`have ${B}\n`)}${pkt("done\n")}`;
    const body = Buffer.from(`${pkt(`want ${A} multi_ack_detailed ofs-delta\n`)}${rest}`, "latin1");
    const patched = Buffer.from(requestThinPack(body)).toString("latin1");
    expect(patched).toBe(`${pkt(`want ${A} multi_ack_detailed ofs-delta thin-pack\n`)}${rest}`);
    expect(requestThinPack(Buffer.from(patched, "latin1"))).toEqual(Buffer.from(patched, "latin1"));
  });

  it("leaves a request without haves alone (a thin pack would change nothing)", () => {
    const body = Buffer.from(
      `${pkt(`want ${A} ofs-delta\n`)}${pkt("deepen 1\n")}0000${pkt("done\n")}`,
      "latin1",
    );
    expect(requestThinPack(body)).toBe(body);
  });
});
