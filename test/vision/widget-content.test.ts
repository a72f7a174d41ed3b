import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import { realCameraFrame } from "../../src/lab/real/camera.js";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import { applyHomeGrid } from "../../src/vision/home-tiles.js";
import { DEFAULT_VISION_OPTIONS, VisionPipeline } from "../../src/vision/pipeline.js";
import type { Candidate } from "../../src/vision/row.js";
import { fonts } from "../sim/phone/helpers.js";
import { REAL_SET_DIR } from "./real-set.js";
import { defaultVisionStack } from "./vision-stack.js";

/**
 * A widget's picture over a line of its text is named an app by `named-icons.ts` (the line is centred
 * under an app-sized image). On a home screen SpringBoard prints app names only on the grid's four
 * columns, so such an `[app]` row off the columns (or inside a `[widget]` row) is the widget's content:
 * an `[icon] ""` and its `[text]`. Synthetic home screens on a 390×844 pt iPhone (HIG: 60 pt icons, small
 * widget 158 pt centred ±90 pt from the middle), as the rows the pipeline hands over.
 */
const W = 390;
const H = 844;
const ASPECT = H / W;
const COLS = [60, 150, 240, 330];
const box = (l: number, t: number, r: number, b: number): FracBox => [l / W, t / H, r / W, b / H];
/** An `[app]` row as `named-icons.ts` makes it: a `w`×`h` pt picture centred at (cx, cy), its name 14 pt under it. */
const named = (label: string, cx: number, cy: number, w = 60, h = 60, nameW = 50): Candidate => ({
  kind: "app",
  label,
  box: box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2),
  labelBox: box(cx - nameW / 2, cy + h / 2 + 8, cx + nameW / 2, cy + h / 2 + 20),
  conf: 0.8,
});
const DOCK_Y = 785;
const chrome = (): Candidate[] => [
  { kind: "button", label: "page dots", box: box(170, 688, 220, 700), conf: 0.5 },
  ...["Phone", "Mail", "Safari", "Messages"].map(
    (n, i): Candidate => ({
      kind: "app",
      label: n,
      box: box((COLS[i] ?? 0) - 30, DOCK_Y - 30, (COLS[i] ?? 0) + 30, DOCK_Y + 30),
      conf: 0.8,
    }),
  ),
];
const blank: RgbImage = { width: W, height: H, channels: 3, data: Buffer.alloc(W * H * 3) };
const kinds = (rows: readonly Candidate[], label: string): string[] =>
  rows.filter((r) => r.label === label).map((r) => r.kind);

describe("widget content named as an app on a home screen", () => {
  it("lists a small widget's picture and its last line as icon and text, its caption unread", () => {
    // Left small widget (centre x 105 pt, rows 0–1): a car's photo, 76×57 pt, over `Updated: 2 Hours ago`
    // (80 pt wide, centred on the widget, off every app column); its caption lost to the wallpaper.
    const rows = [...chrome(), named("Updated: 2 Hours ago", 105, 190, 76, 57, 80)];
    const out = applyHomeGrid(blank, rows, ASPECT);
    expect(kinds(out, "Updated: 2 Hours ago")).toEqual(["text"]);
    expect(out.filter((r) => r.kind === "icon" && r.label === "").length).toBe(1);
    expect(out.filter((r) => r.kind === "app").map((r) => r.label)).toEqual([
      "Phone",
      "Mail",
      "Safari",
      "Messages",
    ]);
  });

  it("does the same inside a widget its caption named", () => {
    // A medium widget (rows 0–1, centred), its caption on row 1's name level, a picture over a line at its
    // middle (a tile on a column there would be an app of the grid, and no widget).
    const caption: Candidate = {
      kind: "text",
      label: "Scriptable",
      box: box(160, 0.09 * H + 74 + 98 - 6, 230, 0.09 * H + 74 + 98 + 6),
      conf: 0.9,
    };
    const rows = [...chrome(), caption, named("48%", 195, 150, 50, 50, 30)];
    const out = applyHomeGrid(blank, rows, ASPECT);
    expect(kinds(out, "Scriptable")).toEqual(["widget"]);
    expect(kinds(out, "48%")).toEqual(["text"]);
  });

  it("keeps a share sheet's row of apps whose pitch drifts off the columns", () => {
    // Four apps 87 pt apart from x 53 (a share sheet's row): the first two within a column's slack, the
    // last two 13–14 pt off theirs; two named apps on columns make the listing a home screen's.
    const y = 500;
    const apps = ["AirDrop", "Notes", "Scriptable", "WPS Office"].map((n, i) => named(n, 53 + 87 * i, y));
    const out = applyHomeGrid(blank, [...chrome(), ...apps], ASPECT);
    for (const n of ["AirDrop", "Notes", "Scriptable", "WPS Office"])
      expect(kinds(out, n), n).toEqual(["app"]);
  });

  it("keeps a grid of real apps named on the columns", () => {
    const y = 0.09 * H + 30;
    const apps = ["Clock", "Maps", "Notes", "Weather"].map((n, i) =>
      named(n, COLS[i] ?? 0, y + 98 * (i % 2)),
    );
    const out = applyHomeGrid(blank, [...chrome(), ...apps], ASPECT);
    for (const n of ["Clock", "Maps", "Notes", "Weather"]) expect(kinds(out, n), n).toEqual(["app"]);
  });
});

describe("a filmed real widget home screen", () => {
  const vision = defaultVisionStack();

  it("lists no widget line as an app (rd-fordpass-home-widgets-light, camera seed 116)", async () => {
    const shot = await realCameraFrame(
      readFileSync(join(REAL_SET_DIR, "images", "rd-fordpass-home-widgets-light.jpg")),
      { seed: 116 },
    );
    const v = vision();
    const pipeline = new VisionPipeline(
      { ocr: v.ocr, detector: v.detector, fonts, clock: { now: () => 0 }, screenPx: shot.screenPx },
      { ...DEFAULT_VISION_OPTIONS, rectifiedWidth: parseConfig({}).vision.rectifiedWidth },
    );
    const entries = (await pipeline.fromCamera(shot.frame, shot.screenToCamera)).entries;
    const apps = entries.filter((e) => e.kind === "app").map((e) => e.label);
    expect(apps).toEqual(["Phone", "Mail", "Safari", "Messages"]);
    expect(entries.filter((e) => e.kind === "text" && e.label === "Updated: 2 Hours ago").length).toBe(3);
  }, 120_000);
});
