// The README's picture is made by scripts/readme-picture.ts from Loupe's real output: this checks
// the script still makes one with today's renderers (a PNG of the review and the check run), that
// it shows the conclusion the App gives, and that two runs make the same page.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { readmePage, readmePicture } from "../../scripts/readme-picture.ts";

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
    // A complete review below the fail_on gate concludes as the App concludes it: success.
    expect(html).toContain("<strong>✓ Loupe review</strong> · success");
    const png = fs.readFileSync(out);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR: the width the page was laid out at, and a page long enough to hold both boxes.
    expect(png.readUInt32BE(16)).toBe(892);
    expect(png.readUInt32BE(20)).toBeGreaterThan(600);
    // The committed picture is a PNG of the same width (regenerate it with the script).
    expect(fs.readFileSync("docs/readme-review.png").readUInt32BE(16)).toBe(892);
  }, 120_000);

  it("is the same page on every run, so regenerating it leaves the checkout clean", async () => {
    const [first, second] = [await readmePage(), await readmePage()];
    expect(second).toBe(first);
    // The committed picture is this page's: the same height as a fresh one.
    const out = path.join(dir, "again.png");
    await readmePicture(out);
    expect(fs.readFileSync(out).readUInt32BE(20)).toBe(
      fs.readFileSync("docs/readme-review.png").readUInt32BE(20),
    );
  }, 120_000);
});
