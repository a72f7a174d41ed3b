import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { transformScreenshot } from "../../src/lab/real/transform.js";
import type { ListingEntry } from "../../src/vision/listing.js";
import { REAL_SET_DIR, realLabel } from "./real-set.js";
import { defaultVisionStack } from "./vision-stack.js";

/**
 * Dev-set screenshots as people publish them (`src/lab/real/transform.ts`: a README's half-size copy,
 * a JPEG re-encode) through the whole pipeline: what the full-size PNG lists, the copy lists too.
 */

const centreIn = (r: ListingEntry, b: readonly number[]): boolean => {
  const cx = (r.box[0] + r.box[2]) / 2;
  const cy = (r.box[1] + r.box[3]) / 2;
  return cx >= (b[0] ?? 0) && cx <= (b[2] ?? 0) && cy >= (b[1] ?? 0) && cy <= (b[3] ?? 0);
};

async function published(name: string, scale: number, jpegQuality?: number): Promise<Buffer> {
  const bytes = readFileSync(join(REAL_SET_DIR, "images", name));
  return (await transformScreenshot(bytes, { scale, ...(jpegQuality ? { jpegQuality } : {}) })).bytes;
}

describe("real screenshots as published (halved, JPEG)", () => {
  const vision = defaultVisionStack();

  it("reads a section index's letters on a halved 2× screenshot (8 px capitals)", async () => {
    const name = "ra-tp-applibrary-list.jpg";
    const label = realLabel(name);
    const view = await vision().pipeline.fromScreenshot(await published(name, 0.5));
    // The index column along the trailing edge: A–Z and #. Z is left out: halved, its 8 px glyph reads
    // as `2` (as the recogniser reads it from the PNG's own pixels scaled the same way).
    const index = label.text.filter((t) => t.box[0] > 0.95 && t.text !== "Z");
    expect(index.length).toBe(26);
    const missed = index
      .filter((t) => !view.entries.some((r) => r.label === t.text && centreIn(r, t.box)))
      .map((t) => t.text);
    // Old code: D I J L S V # (the index pitch taken from the least gap between jittered boxes).
    expect(missed).toEqual([]);
  });

  it("lists a dark Settings page's switches from a q70 JPEG (no alert card found in its ringing)", async () => {
    const name = "ra-tp-dockcontroller-prefs.png";
    const label = realLabel(name);
    const view = await vision().pipeline.fromScreenshot(await published(name, 1, 70));
    // Every switch but the one cut by the screen's bottom edge.
    const switches = label.elements.filter((e) => e.kind === "switch" && e.box[3] < 1);
    expect(switches.length).toBe(5);
    const missed = switches
      .filter(
        (e) => !view.entries.some((r) => r.kind === "switch" && r.state === e.state && centreIn(r, e.box)),
      )
      .map((e) => e.label);
    // Old code: all five (the cell's edges' JPEG ringing read as an alert's hairlines; rows behind dropped).
    expect(missed).toEqual([]);
  });
});
