import { describe, expect, it } from "vitest";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import { inferGridApps } from "../../src/vision/app-grid.js";
import { snapAppTiles, snapToTile } from "../../src/vision/app-tiles.js";
import { nameAppIcons } from "../../src/vision/named-icons.js";
import type { Candidate } from "../../src/vision/row.js";
import { filmedRealScreen } from "./ocr/filmed-real.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * The real home screen (datasets/real-iphone rd-homewidget-home-widget.png) filmed by the simulated
 * camera as the bench does (seed 7 + the screen's index) and rectified as the pipeline does (585 px
 * wide). There the detector's box for News hugs the red glyph inside the white tile, so the name
 * under the tile starts too far below the box to pair, and without News the grid has one named tile.
 */
const NAME = "rd-homewidget-home-widget.png";

const icon = (box: FracBox): Candidate => ({ kind: "icon", label: "", box, conf: 0.4 });
const text = (label: string, box: FracBox): Candidate => ({ kind: "text", label, box, conf: 0.9 });
const labelBox = (label: string): FracBox => {
  const e = realLabel(NAME).elements.find((x) => x.label === label);
  if (!e) throw new Error(`no ${label}`);
  return e.box;
};

// The rows the pipeline lists on the camera frame before naming (boxes as printed by `piclaw listing`).
const newsGlyph = icon([0.564, 0.217, 0.676, 0.264]);
const cameraRows: Candidate[] = [
  newsGlyph,
  text("News", [0.578, 0.287, 0.655, 0.297]),
  icon([0.548, 0.326, 0.688, 0.38]), // Wallet: the detector's box is the tile
  text("Wallet", [0.575, 0.403, 0.66, 0.416]),
  text("Reminders", [0.309, 0.404, 0.458, 0.415]),
  text("Settings", [0.786, 0.403, 0.903, 0.417]),
];

describe("snapAppTiles on a camera frame of a real home screen", () => {
  it("grows the glyph-hugging box to News's tile, for several sensor noises", async () => {
    const want = labelBox("News");
    for (const seed of [118, 7, 42]) {
      const tile = snapToTile(await filmedRealScreen(NAME, seed), newsGlyph.box);
      expect(tile, `seed ${seed}`).not.toBeNull();
      for (let i = 0; i < 4; i++) expect(Math.abs((tile?.[i] ?? 0) - (want[i] ?? 0))).toBeLessThan(0.012);
    }
  });

  it("so News names and the grid places the missed Reminders and Settings tiles", async () => {
    const image = await filmedRealScreen(NAME, 118);
    const aspect = image.height / image.width;
    const out = inferGridApps(nameAppIcons(snapAppTiles(image, cameraRows, aspect), { aspect }), aspect);
    const apps = out.filter((r) => r.kind === "app");
    expect(apps.map((r) => r.label).sort()).toEqual(["News", "Reminders", "Settings", "Wallet"]);
    for (const a of apps) {
      const [l, t, r, b] = labelBox(a.label);
      const cx = (a.box[0] + a.box[2]) / 2;
      const cy = (a.box[1] + a.box[3]) / 2;
      expect(cx > l && cx < r && cy > t && cy < b, a.label).toBe(true);
    }
  });

  it("leaves a screenshot's named tiles, and a box on a flat background, alone", async () => {
    const shot = await loadRealImage(NAME);
    const rows = [
      icon([0.557, 0.217, 0.68, 0.265]), // the screenshot's News box: its name is close under it
      text("News", [0.585, 0.284, 0.645, 0.298]),
    ];
    expect(snapAppTiles(shot, rows, shot.height / shot.width)).toEqual(rows);
    const flat: RgbImage = { width: 400, height: 866, channels: 3, data: Buffer.alloc(400 * 866 * 3, 240) };
    expect(snapToTile(flat, newsGlyph.box)).toBeNull();
  });
});
