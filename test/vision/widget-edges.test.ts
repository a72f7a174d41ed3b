import { describe, expect, it } from "vitest";
import {
  renderWidgetScreen,
  type WidgetScreenOptions,
  widgetScreen,
} from "../../src/lab/synth/widget-screens.js";
import type { FracBox } from "../../src/shared/box.js";
import { FontBook } from "../../src/shared/fonts.js";
import { type RgbImage, toRgb } from "../../src/shared/image.js";
import { seededRandom } from "../../src/util/random.js";
import { homeGrid } from "../../src/vision/home-layout.js";
import { applyHomeGrid } from "../../src/vision/home-tiles.js";
import { shrinkRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { edgesRunUp } from "../../src/vision/widget-edges.js";

const fonts = new FontBook();
const H = 844;
const W = 390;
const g = homeGrid(H / W, []);
/** Rows 4–5's medium place (tile tops 71 + 98·n pt) and the large widget's top over it (row 2). */
const MEDIUM: FracBox = [26 / W, (71 + 4 * 98) / H, 364 / W, (71 + 4 * 98 + 158) / H];
const LARGE_TOP = (71 + 2 * 98) / H;

/**
 * A synthetic widget home screen at the pipeline's working width (585 px) and its rows as the listing
 * has them before `applyHomeGrid`: each named app an `[app]` row with its name's box (`named-icons.ts`),
 * the dock's apps unnamed, every other line a `[text]` row.
 */
async function screen(opts: WidgetScreenOptions, seed = 3): Promise<{ img: RgbImage; rows: Candidate[] }> {
  const { scene } = widgetScreen(seededRandom(seed), fonts, opts);
  const img = shrinkRgb(toRgb(await renderWidgetScreen(scene)), 585);
  const truth = scene.truth();
  const names = new Set<(typeof truth)[number]>();
  const rows: Candidate[] = [];
  for (const e of truth.filter((t) => t.id.startsWith("w.app") || t.id.startsWith("w.dock"))) {
    const name = truth.find(
      (t) => t.kind === "text" && t.label === e.label && t.box[1] > e.box[3] && t.box[1] - e.box[3] < 0.02,
    );
    if (name) names.add(name);
    rows.push({ kind: "app", label: e.label, box: e.box, conf: 1, ...(name ? { labelBox: name.box } : {}) });
  }
  for (const e of truth)
    if (e.kind === "text" && e.box[1] > 0.06 && !names.has(e))
      rows.push({ kind: "text", label: e.label, box: e.box, conf: 1 });
  return { img, rows };
}

describe("edgesRunUp: a large widget's side edges over the medium's place", () => {
  it("is true for a large widget, false for apps or two small widgets above a medium", async () => {
    for (const kind of ["calendar", "photo"] as const) {
      const { img } = await screen({ blocks: ["apps", "apps", "large"], kind });
      expect(edgesRunUp(img, g, MEDIUM, LARGE_TOP)).toBe(true);
    }
    const apps = await screen({ blocks: ["apps", "apps", "apps", "apps", "medium"], kind: "clock" });
    expect(edgesRunUp(apps.img, g, MEDIUM, LARGE_TOP)).toBe(false);
    const smalls = await screen({ blocks: ["apps", "apps", "smalls", "medium"], kind: "clock" });
    expect(edgesRunUp(smalls.img, g, MEDIUM, LARGE_TOP)).toBe(false);
  }, 120_000);
});

describe("applyHomeGrid: a large calendar widget's day numbers", () => {
  it("stay text inside one large [widget] row, not apps named by numbers on the app columns", async () => {
    const { img, rows } = await screen({
      blocks: ["apps", "apps", "large"],
      kind: "calendar",
      locale: "en",
    });
    const out = applyHomeGrid(img, rows, H / W);
    const widget = out.find((r) => r.kind === "widget");
    expect(widget?.label).toBe("Calendar");
    expect(widget?.box[1]).toBeCloseTo(LARGE_TOP, 2);
    const numbers = out.filter((r) => /^\d{1,2}$/.test(r.label));
    expect(numbers.length).toBeGreaterThan(20);
    expect(numbers.every((r) => r.kind === "text")).toBe(true);
    // The apps in the two rows above are still apps.
    expect(out.filter((r) => r.kind === "app").length).toBeGreaterThanOrEqual(6);
  }, 120_000);
});
