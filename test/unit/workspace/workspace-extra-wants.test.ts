import { describe, expect, it } from "@jest/globals";
import { addWants } from "../../../src/workspace/extra-wants.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const pkt = (line: string): string => (line.length + 4).toString(16).padStart(4, "0") + line;
const rest = `${pkt("deepen 1\n")}0000${pkt("done\n")}`;

describe("extra wants in an upload-pack request", () => {
  it("adds a want line after the first one, its pkt-line length right", () => {
    const body = Buffer.from(`${pkt(`want ${A} multi_ack_detailed ofs-delta\n`)}${rest}`, "latin1");
    expect(Buffer.from(addWants(body, [B])).toString("latin1")).toBe(
      `${pkt(`want ${A} multi_ack_detailed ofs-delta\n`)}${pkt(`want ${B}\n`)}${rest}`,
    );
  });

  it("does not want a commit twice", () => {
    const body = Buffer.from(`${pkt(`want ${A} ofs-delta\n`)}${pkt(`want ${C}\n`)}${rest}`, "latin1");
    expect(addWants(body, [A, C])).toBe(body);
    expect(Buffer.from(addWants(body, [C, B])).toString("latin1")).toBe(
      `${pkt(`want ${A} ofs-delta\n`)}${pkt(`want ${B}\n`)}${pkt(`want ${C}\n`)}${rest}`,
    );
  });

  it("leaves a body that does not start with a want line alone", () => {
    const body = Buffer.from(`${pkt("deepen 1\n")}0000`, "latin1");
    expect(addWants(body, [B])).toBe(body);
    const nothing = Buffer.from(`${pkt(`want ${A}\n`)}${rest}`, "latin1");
    expect(addWants(nothing, [])).toBe(nothing);
  });
});
