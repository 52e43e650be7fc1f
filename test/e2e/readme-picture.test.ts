// The README's picture is made by scripts/readme-picture.ts from Loupe's real output: this checks
// the script still makes one with today's renderers (a PNG of the review and the check run), not
// that its pixels are unchanged.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { readmePicture } from "../../scripts/readme-picture.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-picture-test-"));

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the README's picture", () => {
  it("is made from a real review and check run, rendered by cmark-gfm and photographed by Chromium", async () => {
    const out = path.join(dir, "review.png");
    const html = await readmePicture(out);
    // The review's inline comment and the check run's tables, as cmark-gfm renders Loupe's Markdown.
    expect(html).toContain("A partial refund marks the whole order refunded");
    expect(html).toContain("<strong>Stopped:</strong>");
    expect(html).toMatch(/<table>[\s\S]*<th>Severity<\/th>/);
    expect(html).toContain("1 inline comment");
    const png = fs.readFileSync(out);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR: the width the page was laid out at, and a page long enough to hold both boxes.
    expect(png.readUInt32BE(16)).toBe(892);
    expect(png.readUInt32BE(20)).toBeGreaterThan(600);
    // The committed picture is a PNG of the same width (regenerate it with the script).
    expect(fs.readFileSync("docs/readme-review.png").readUInt32BE(16)).toBe(892);
  }, 120_000);
});
