import { describe, expect, it } from "vitest";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import { colPitch, columnCentres, homeGrid, rowPitch } from "../../src/vision/home-layout.js";
import { applyHomeGrid } from "../../src/vision/home-tiles.js";
import type { Candidate } from "../../src/vision/row.js";

/**
 * Synthetic home screens laid out in points on a 390×844 pt iPhone (Apple HIG widget sizes: small 158,
 * medium 338×158, large 338×354 pt; 60 pt icons), as the OCR and detector rows the pipeline hands over.
 */
const W = 390;
const H = 844;
const ASPECT = H / W;
const COLS = [57, 150, 240, 333]; // ≈ 195 ± 45, ± 135 pt: the four columns
/** Row k's name line centre, in points: first tile top 0.09 × 844, + 60 pt tile + 14 pt. */
const nameY = (k: number): number => 0.09 * H + 74 + 98 * k;

const box = (l: number, t: number, r: number, b: number): FracBox => [l / W, t / H, r / W, b / H];
const text = (label: string, cx: number, cy: number, w = 40, h = 12): Candidate => ({
  kind: "text",
  label,
  box: box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2),
  conf: 0.9,
});
const tile = (kind: "app" | "icon", label: string, cx: number, cy: number): Candidate => ({
  kind,
  label,
  box: box(cx - 30, cy - 30, cx + 30, cy + 30),
  conf: 0.8,
});
const DOCK_Y = 785;
/** Page dots and a dock of four stock apps (named by look, no names printed): a home screen. */
const chrome = (): Candidate[] => [
  { kind: "button", label: "page dots", box: box(170, 688, 220, 700), conf: 0.5 },
  ...["Phone", "Mail", "Safari", "Messages"].map((n, i) => tile("app", n, COLS[i] ?? 0, DOCK_Y)),
];
const blank: RgbImage = { width: W, height: H, channels: 3, data: Buffer.alloc(W * H * 3) };
const size = (r: Candidate): number[] => [
  Math.round((r.box[2] - r.box[0]) * W),
  Math.round((r.box[3] - r.box[1]) * H),
];
const centre = (r: Candidate): [number, number] => [
  ((r.box[0] + r.box[2]) / 2) * W,
  ((r.box[1] + r.box[3]) / 2) * H,
];

describe("home grid metrics", () => {
  it("derives the pitches from Apple's widget sizes and centres four columns", () => {
    const g = homeGrid(ASPECT, []);
    expect(colPitch(g)).toBe(90); // (338 − 158) / 2
    expect(rowPitch(g)).toBe(98); // (354 − 158) / 2
    expect(columnCentres(g).map((c) => Math.round(c * W))).toEqual([60, 150, 240, 330]);
  });
});

describe("applyHomeGrid", () => {
  it("gives a whole row of bare names their tiles; tile artwork goes, a badge stays", () => {
    const rows = [
      ...chrome(),
      ...["Maps", "Clock", "Notes", "Photos"].map((n, i) => text(n, COLS[i] ?? 0, nameY(2))),
      text("14", COLS[1] ?? 0, nameY(2) - 44, 24, 20), // a live Clock/Calendar face read as text
      { kind: "icon", label: "", box: box(225, nameY(2) - 62, 255, nameY(2) - 30), conf: 0.4 } as Candidate,
      text("1", 360, nameY(2) - 72, 10, 12), // Photos' badge
    ];
    const out = applyHomeGrid(blank, rows, ASPECT);
    const apps = out.filter((r) => r.kind === "app" && r.labelBox);
    expect(apps.map((r) => r.label)).toEqual(["Maps", "Clock", "Notes", "Photos"]);
    for (const [i, a] of apps.entries()) {
      const [x, y] = centre(a);
      expect(Math.abs(x - (COLS[i] ?? 0))).toBeLessThan(6);
      expect(Math.abs(y - (nameY(2) - 44))).toBeLessThan(3);
    }
    expect(out.filter((r) => r.kind === "text").map((r) => r.label)).toEqual(["1"]);
    expect(out.some((r) => r.kind === "icon")).toBe(false);
  });

  it("names widgets by their captions: small and medium; content lines are no captions", () => {
    const rows = [
      ...chrome(),
      text("Oil Life: 7%", 195 - 90, nameY(0), 80), // content on the first row's level: no caption
      text("Scriptable", 195 - 90, nameY(1), 70),
      text("Fitness", 195, nameY(3), 50),
      ...["Maps", "Clock", "Notes", "Photos"].map((n, i) => text(n, COLS[i] ?? 0, nameY(5))),
    ];
    const out = applyHomeGrid(blank, rows, ASPECT);
    const widgets = out.filter((r) => r.kind === "widget");
    expect(widgets.map((r) => [r.label, ...size(r)])).toEqual([
      ["Scriptable", 158, 158],
      ["Fitness", 338, 158], // rows 0–1 above it hold another widget: medium, not large
    ]);
    expect(out.some((r) => r.kind === "text" && r.label === "Oil Life: 7%")).toBe(true);
    expect(out.filter((r) => r.kind === "app" && r.labelBox).length).toBe(4);
  });

  it("takes a wide widget for a large one when the two rows above its medium place hold its content", () => {
    const rows = [
      ...chrome(),
      text("Locks", 100, nameY(2) - 40, 40),
      text("Updated 2 Hours ago", 195, nameY(3) - 60, 120),
      text("Weather", 195, nameY(5), 60),
    ];
    // Content only beside the middle (two small widgets whose captions were not read): medium.
    const beside = rows.filter((r) => r.label !== "Updated 2 Hours ago");
    const medium = applyHomeGrid(blank, beside, ASPECT).filter((r) => r.kind === "widget");
    expect(medium.map((r) => [r.label, ...size(r)])).toEqual([["Weather", 338, 158]]);
    const widgets = applyHomeGrid(blank, rows, ASPECT).filter((r) => r.kind === "widget");
    expect(widgets.map((r) => [r.label, ...size(r)])).toEqual([["Weather", 338, 354]]);
  });

  it("leaves a screen that is not a home screen as it is", () => {
    const rows = ["General", "Privacy", "Battery", "Display"].map((n, i) => text(n, COLS[i] ?? 0, nameY(2)));
    expect(applyHomeGrid(blank, rows, ASPECT)).toEqual(rows);
  });

  it("adds a dock slot the detector missed where its pixels show a tile, not on bare material", () => {
    const img: RgbImage = { width: W, height: H, channels: 3, data: Buffer.alloc(W * H * 3, 40) };
    const paint = (l: number, t: number, r: number, b: number, c: [number, number, number]): void => {
      for (let y = t; y < b; y++) for (let x = l; x < r; x++) img.data.set(c, (y * W + x) * 3);
    };
    paint(10, DOCK_Y - 50, 380, DOCK_Y + 50, [190, 190, 195]); // the dock's material
    for (const x of COLS.slice(0, 3)) paint(x - 30, DOCK_Y - 30, x + 30, DOCK_Y + 30, [30, 120, 230]);
    paint(220, DOCK_Y - 10, 260, DOCK_Y + 10, [255, 255, 255]); // the third tile's glyph
    const rows: Candidate[] = [
      { kind: "button", label: "page dots", box: box(170, 688, 220, 700), conf: 0.5 },
      tile("app", "Phone", COLS[0] ?? 0, DOCK_Y),
      tile("icon", "", COLS[1] ?? 0, DOCK_Y),
    ];
    const out = applyHomeGrid(img, rows, ASPECT);
    const dock = out
      .map((r) => [r.kind, r.label, Math.round(centre(r)[0])])
      .filter((r) => r[1] !== "page dots");
    expect(dock).toEqual([
      ["app", "Phone", 57],
      ["icon", "", 150],
      ["icon", "", 240],
    ]);
  });
});
