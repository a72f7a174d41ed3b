import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { RealScreen } from "../../src/lab/real/labels.js";
import type { ListingEntry } from "../../src/vision/listing.js";
import { REAL_SET_DIR, realLabel } from "./real-set.js";
import { defaultVisionStack } from "./vision-stack.js";

/**
 * Home screens of the development set (datasets/real-iphone) through the whole pipeline: every labelled
 * app tile has an `app` row named as the label says, whose centre is on the tile; a widget is one
 * `widget` row named by its caption; and the same screenshot re-encoded as JPEG (q85, q90 — detector
 * boxes move) lists the same tiles.
 */

const centre = (b: readonly number[]): [number, number] => [
  ((b[0] ?? 0) + (b[2] ?? 0)) / 2,
  ((b[1] ?? 0) + (b[3] ?? 0)) / 2,
];
const inside = (p: [number, number], b: readonly number[]): boolean =>
  p[0] >= (b[0] ?? 0) && p[0] <= (b[2] ?? 0) && p[1] >= (b[1] ?? 0) && p[1] <= (b[3] ?? 0);

/** The labelled apps with no `app` row of that name centred on their tile. */
function missedApps(label: RealScreen, entries: readonly ListingEntry[]): string[] {
  return label.elements
    .filter((e) => e.kind === "app")
    .filter(
      (e) =>
        !entries.some(
          (r) =>
            r.kind === "app" &&
            r.label.toLowerCase() === e.label.toLowerCase() &&
            inside(centre(r.box), e.box),
        ),
    )
    .map((e) => e.label);
}

/** The same screenshot as a JPEG of this quality (as a web page or a chat app would re-encode it). */
async function reencoded(name: string, quality: number): Promise<Buffer> {
  return sharp(join(REAL_SET_DIR, "images", name))
    .jpeg({ quality })
    .toBuffer();
}

describe("home screens from SpringBoard's grid (real screenshots)", () => {
  const vision = defaultVisionStack();

  it("lists every tile of an iOS 14 home page, named, as PNG and re-encoded at q85 and q90", async () => {
    const name = "rd-homewidget-home-widget.png";
    const label = realLabel(name);
    const apps: string[][] = [];
    for (const image of [
      readFileSync(join(REAL_SET_DIR, "images", name)),
      await reencoded(name, 90),
      await reencoded(name, 85),
    ]) {
      const view = await vision().pipeline.fromScreenshot(image);
      // Photos' tile is never found by the detector; the q85 copy also loses Maps' (old code).
      expect(missedApps(label, view.entries)).toEqual([]);
      apps.push(
        view.entries
          .filter((r) => r.kind === "app")
          .map((r) => r.label)
          .sort(),
      );
    }
    expect(apps[1]).toEqual(apps[0]);
    expect(apps[2]).toEqual(apps[0]);
  }, 120_000);

  it("names a medium and a large Scriptable widget by their caption, one row each", async () => {
    for (const name of ["rd-fordpass-home-widget-medium.jpg", "rd-fordpass-home-widget-dark.jpg"]) {
      const label = realLabel(name);
      const widget = label.elements.find((e) => e.label === "Scriptable");
      if (!widget) throw new Error(`${name}: no widget labelled`);
      const view = await vision().pipeline.fromScreenshot(readFileSync(join(REAL_SET_DIR, "images", name)));
      const rows = view.entries.filter((r) => r.kind === "widget");
      expect(rows.map((r) => r.label)).toEqual(["Scriptable"]);
      const row = rows[0] as ListingEntry;
      expect(inside(centre(row.box), widget.box)).toBe(true);
      // Its box is the widget's (medium 4×2 or large 4×4 cells) within 4% of the screen, or the part of it
      // clear of the widget's own buttons: no other labelled target's centre is under it.
      for (const i of [0, 1, 2])
        expect(Math.abs((row.box[i] ?? 0) - (widget.box[i] ?? 0))).toBeLessThan(0.04);
      expect(row.box[3]).toBeLessThan((widget.box[3] ?? 0) + 0.04);
      const under = label.elements.filter((e) => e !== widget && inside(centre(e.box), row.box));
      expect(under.map((e) => e.label)).toEqual([]);
      // No app is named inside a widget (its symbols over a line of its text are content).
      expect(view.entries.some((r) => r.kind === "app" && inside(centre(r.box), widget.box))).toBe(false);
      expect(missedApps(label, view.entries)).toEqual([]);
    }
  }, 120_000);
});
